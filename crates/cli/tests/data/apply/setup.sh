# Shell lines run before the first apply of each case (by the recorder and
# by the test alike): the state the manifests start from.
rm -rf /tmp/mrtest-apply
mkdir -p /tmp/mrtest-apply
echo stale > /tmp/mrtest-apply/old
mkdir -p /tmp/mrtest-apply/cache/sub
echo a > /tmp/mrtest-apply/cache/old.tmp
echo b > /tmp/mrtest-apply/cache/new.tmp
echo c > /tmp/mrtest-apply/cache/keep.txt
echo d > /tmp/mrtest-apply/cache/sub/x.tmp
touch -d '10 days ago' /tmp/mrtest-apply/cache/old.tmp /tmp/mrtest-apply/cache/sub/x.tmp
mkdir -p /tmp/mrtest-apply/src/conf.d /tmp/mrtest-apply/dst
echo a > /tmp/mrtest-apply/src/a.conf
echo b > /tmp/mrtest-apply/src/conf.d/b.conf
echo skip > /tmp/mrtest-apply/src/x.swp
echo stray > /tmp/mrtest-apply/dst/stray
