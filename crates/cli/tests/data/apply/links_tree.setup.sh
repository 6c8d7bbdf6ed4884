# A source tree for links_tree.pp holding a relative link to a file and a
# link to a directory.
mkdir -p /tmp/mrtest-apply/real /tmp/mrtest-apply/tree/sub
echo real > /tmp/mrtest-apply/real/file
echo tree > /tmp/mrtest-apply/tree/a
echo sub > /tmp/mrtest-apply/tree/sub/b
ln -s a /tmp/mrtest-apply/tree/relative
ln -s /tmp/mrtest-apply/real /tmp/mrtest-apply/tree/dir-link
