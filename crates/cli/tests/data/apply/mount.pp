# mount from Debian's mount_core on a scratch mount table: entries defined
# (present is an alias of defined) with Puppet's defaults for options, dump
# and pass, a name with a trailing slash, whitespace written as \040, an
# existing entry changed and one removed. Nothing is mounted.
$fstab = '/tmp/mrtest-apply/fstab'
mount { '/tmp/mrtest-apply/mnt/data':
  ensure => defined,
  device => '/dev/sdz1',
  fstype => 'ext4',
  target => $fstab,
}
mount { '/tmp/mrtest-apply/mnt/opts/':
  ensure  => present,
  device  => 'UUID=0f0e-1234',
  fstype  => 'xfs',
  options => 'noatime,nodev',
  dump    => 1,
  pass    => 2,
  target  => $fstab,
}
mount { '/tmp/mrtest-apply/mnt/with space':
  ensure  => defined,
  device  => 'server:/share a',
  fstype  => 'nfs',
  options => 'ro,soft',
  target  => $fstab,
}
mount { '/srv/keep':
  ensure  => present,
  options => 'noatime,ro',
  pass    => 2,
  target  => $fstab,
}
mount { '/srv/old':
  ensure => absent,
  target => $fstab,
}
