# Changes made behind the runs' back, after the second run.
echo three > /tmp/mrtest-apply/watched
chmod 640 /tmp/mrtest-apply/watched
chmod 600 /tmp/mrtest-apply/managed
