# The files audit.pp watches, as they are before the first run.
echo one > /tmp/mrtest-apply/watched
chmod 600 /tmp/mrtest-apply/watched
echo two > /tmp/mrtest-apply/managed
chmod 644 /tmp/mrtest-apply/managed
