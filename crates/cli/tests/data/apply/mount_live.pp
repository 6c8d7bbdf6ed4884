# mount from Debian's mount_core with file systems really mounted: small
# tmpfs file systems under /tmp/mrtest-apply, and a scratch table. A
# mounted file system the table lacks is added to it (defined), a mounted
# one is unmounted, and one whose options change is refreshed (remounted
# by unmounting and mounting again, since it cannot be remounted in place;
# mounting it again looks for it in /etc/fstab, which fails, so the
# refresh shows). Nothing outside /tmp/mrtest-apply is mounted.
$fstab = '/tmp/mrtest-apply/fstab'
mount { '/tmp/mrtest-apply/mnt/ghost':
  ensure   => defined,
  device   => 'mrtest',
  fstype   => 'tmpfs',
  options  => 'size=1m,mode=0755',
  remounts => false,
  target   => $fstab,
}
mount { '/tmp/mrtest-apply/mnt/up':
  ensure => unmounted,
  target => $fstab,
}
mount { '/tmp/mrtest-apply/mnt/held':
  ensure   => defined,
  options  => 'size=2m,mode=0755',
  remounts => false,
  target   => $fstab,
}
