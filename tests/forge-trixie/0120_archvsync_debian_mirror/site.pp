# A Debian mirror kept by archvsync (ftpsync), serving it by HTTP, FTP and
# rsync, with only amd64 and sources mirrored daily. archvsync declares its
# Apache vhost with access_log_format => false, which apache 12's vhost
# rejects (it wants a string), so the vhost class is declared here, with
# the format named, instead of through manage_apache.
class { 'archvsync':
  manage_apache        => false,
  manage_pureftpd      => true,
  manage_rsync         => true,
  mirrorname           => 'mirror.example.com',
  mailto               => 'mirror-admin@example.com',
  homedir              => '/srv/mrtest-mirror',
  info_maintainer      => 'Mirror Admin <mirror-admin@example.com>',
  info_sponsor         => 'Example Org <https://www.example.com>',
  info_country         => 'FR',
  info_location        => 'Paris',
  info_throughput      => '1Gb',
  arch_include         => 'amd64 source',
  logdir               => '/srv/mrtest-mirror/log',
  setup_daily_cron     => true,
  sync_debian          => true,
  debian_to            => '/srv/mrtest-mirror/debian/',
  debian_rsync_host    => 'ftp.fr.debian.org',
  debian_rsync_path    => 'debian',
  sync_debian_security => false,
  sync_debian_archive  => false,
  sync_ubuntu          => false,
}
class { 'archvsync::apache':
  access_log_format => 'combined',
}
