# Behind Puppet's back: the kept host loses an alias.
sed -i 's/^kept.example.com,kept,10.0.0.1 /kept.example.com,kept /' /tmp/mrtest-apply/ssh/known_hosts
