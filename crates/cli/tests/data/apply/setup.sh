# Shell lines run before the first apply of each case (by the recorder and
# by the test alike): the state the manifests start from.
rm -rf /tmp/mrtest-apply
mkdir -p /tmp/mrtest-apply
echo stale > /tmp/mrtest-apply/old
