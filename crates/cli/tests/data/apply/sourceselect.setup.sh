# Three source trees for sourceselect.pp, overlapping on some paths; the
# second holds a link, which is copied as a link.
mkdir -p /tmp/mrtest-apply/s1/d /tmp/mrtest-apply/s2/d /tmp/mrtest-apply/s2/e /tmp/mrtest-apply/s3
echo 1 > /tmp/mrtest-apply/s1/a
echo 1d > /tmp/mrtest-apply/s1/d/x
echo 2 > /tmp/mrtest-apply/s2/a
echo 2b > /tmp/mrtest-apply/s2/b
echo 2d > /tmp/mrtest-apply/s2/d/x
echo 2e > /tmp/mrtest-apply/s2/e/y
ln -s b /tmp/mrtest-apply/s2/link
echo 3 > /tmp/mrtest-apply/s3/c
