# A mount table the mount case edits: comments, a blank line, an entry it
# leaves alone, one it removes and one whose fields it changes.
d=/tmp/mrtest-apply
printf '# /etc/fstab: static file system information.\n#\n# <file system> <mount point> <type> <options> <dump> <pass>\nUUID=1234-abcd\t/\text4\terrors=remount-ro\t0\t1\n\n/dev/sdy1 /srv/old ext4 defaults 0 2\n/dev/sdx1   /srv/keep   xfs   noatime   0   0\nproc /proc proc\n' > $d/fstab
