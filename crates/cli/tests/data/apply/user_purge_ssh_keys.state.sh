# The keys left in each file, and who owns the files.
cd /tmp/mrtest-apply/home/mrtest-purgekey && stat -c '%n %U %G %a' .ssh/authorized_keys .ssh/extra_keys 2>&1 && grep -v '^#' .ssh/authorized_keys .ssh/extra_keys
