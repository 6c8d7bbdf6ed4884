# What is mounted under /tmp/mrtest-apply: the device, mount point and
# file system type of each.
awk '$2 ~ /^\/tmp\/mrtest-apply\// { print $1, $2, $3 }' /proc/self/mounts | sort
