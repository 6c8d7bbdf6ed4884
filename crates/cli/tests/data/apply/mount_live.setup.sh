# Small tmpfs file systems under /tmp/mrtest-apply for the mount_live case:
# one mounted without an entry in the scratch table (a "ghost"), two in
# the table and mounted. Earlier ones are unmounted first (setup.sh cannot
# remove a mount point).
sh "$(dirname "$0")/mount-umount.sh"
d=/tmp/mrtest-apply
mkdir -p $d/mnt/ghost $d/mnt/up $d/mnt/held
printf '# A scratch mount table.\nmrtest\t%s\ttmpfs\tsize=1m,mode=0755\t0\t0\nmrtest\t%s\ttmpfs\tsize=1m,mode=0755\t0\t0\n' $d/mnt/up $d/mnt/held > $d/fstab
for point in ghost up held; do
    mount -t tmpfs -o size=1m,mode=0755 mrtest $d/mnt/$point
done
