# Unmounts whatever is mounted under /tmp/mrtest-apply (the mount_live
# case's tmpfs file systems), deepest first; nothing else is touched.
awk '$2 ~ /^\/tmp\/mrtest-apply\// { print $2 }' /proc/self/mounts | sort -r | while read -r point; do
    umount "$point"
done
