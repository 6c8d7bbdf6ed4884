# Links for links.pp: to a file, to a directory, dangling, and one used as
# a source.
mkdir -p /tmp/mrtest-apply/real
echo real > /tmp/mrtest-apply/real/file
chmod 600 /tmp/mrtest-apply/real/file
ln -s /tmp/mrtest-apply/real/file /tmp/mrtest-apply/to-mode
ln -s /tmp/mrtest-apply/real/file /tmp/mrtest-apply/to-content
ln -s /tmp/mrtest-apply/real/file /tmp/mrtest-apply/to-remove
ln -s /tmp/mrtest-apply/real /tmp/mrtest-apply/to-dir
ln -s /tmp/mrtest-apply/made-through /tmp/mrtest-apply/dangling
ln -s /tmp/mrtest-apply/real/file /tmp/mrtest-apply/source-link
