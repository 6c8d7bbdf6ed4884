# A source tree of five entries for max_files.pp.
mkdir -p /tmp/mrtest-apply/five/sub /tmp/mrtest-apply/limited
echo 1 > /tmp/mrtest-apply/five/f1
echo 2 > /tmp/mrtest-apply/five/f2
echo 3 > /tmp/mrtest-apply/five/f3
echo s > /tmp/mrtest-apply/five/sub/s
