# A mounted file system and its mount point.
file { '/mnt/data': ensure => directory }
mount { '/mnt/data':
  ensure  => mounted,
  device  => '/dev/sdb1',
  fstype  => 'ext4',
  options => 'defaults,noatime',
  atboot  => true,
  require => File['/mnt/data'],
}
