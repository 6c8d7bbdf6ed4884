# Behind Puppet's back: the kept key loses its line and the new one its
# options.
sed -i -e '/kept@example.com/d' -e 's/^no-pty,from="10.0.0.1,10.0.0.2" //' /tmp/mrtest-apply/ssh/authorized_keys
