# Files backed up into the named bucket of filebucket.pp, which lives
# outside the compared tree (Puppet's bucket layout is not marionette's).
rm -rf /tmp/mrtest-apply-bucket
echo "old content" > /tmp/mrtest-apply/backed-up
echo "doomed" > /tmp/mrtest-apply/removed
