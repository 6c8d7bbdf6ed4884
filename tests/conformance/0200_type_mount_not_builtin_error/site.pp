mount { '/tmp/mrtest-mnt':
  ensure  => mounted,
  device  => 'tmpfs',
  fstype  => 'tmpfs',
  options => 'size=10m,mode=0755',
  atboot  => true,
  dump    => 0,
  pass    => '0',
  target  => '/tmp/mrtest-fstab',
}
