# A small Ceph cluster on one node: the configuration, a monitor and a
# manager, an OSD on a spare disk, the admin and bootstrap keys, and a pool
# for RBD images.
class { 'ceph':
  fsid                  => '4b5c8c0a-ff60-454b-a1b4-9747aa737d19',
  mon_initial_members   => 'mrtest',
  mon_host              => '192.0.2.41',
  public_network        => '192.0.2.0/24',
  cluster_network       => '198.51.100.0/24',
  osd_pool_default_size => 1,
}
ceph::mon { 'mrtest':
  key => 'AQATGHJTUCBqIBAA7M2yafV1xctn1pgr3GcKPg==',
}
ceph::mgr { 'mrtest':
  key        => 'AQBMGHJTkC8HKhAAJ7NH255wYypgm1oVuV41MB==',
  inject_key => true,
}
Ceph::Key {
  inject         => true,
  inject_as_id   => 'mon.',
  inject_keyring => '/var/lib/ceph/mon/ceph-mrtest/keyring',
}
ceph::key { 'client.admin':
  secret  => 'AQBMGHJTkC8HKhAAJ7NH255wYypgm1oVuV41MA==',
  cap_mon => 'allow *',
  cap_osd => 'allow *',
  cap_mds => 'allow',
  cap_mgr => 'allow *',
}
ceph::key { 'client.bootstrap-osd':
  secret       => 'AQARG3JTsDDEHhAAVinHPiqvJkUi5Mww/URupw==',
  keyring_path => '/var/lib/ceph/bootstrap-osd/ceph.keyring',
  cap_mon      => 'allow profile bootstrap-osd',
}
ceph::osd { '/dev/sdb': }
ceph::pool { 'rbd':
  pg_num => 64,
  size   => 1,
}
