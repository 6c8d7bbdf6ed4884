# Values the mount type rejects: options with whitespace fail the catalog.
mount { '/tmp/mrtest-apply/mnt/bad':
  ensure  => defined,
  device  => '/dev/sdz4',
  fstype  => 'ext4',
  options => 'ro, noatime',
  target  => '/tmp/mrtest-apply/fstab',
}
