# Mounts behind the runs' back what the manifest wants unmounted.
mount -t tmpfs -o size=1m,mode=0755 mrtest /tmp/mrtest-apply/mnt/up
