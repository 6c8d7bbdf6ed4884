# A recursive directory whose source an earlier resource makes (as a
# package installs openvpn's easy-rsa): its entries are copied as the run
# finds the source when it reaches the directory, as Puppet lists it then,
# each with its own source's mode (`source_permissions`, which every
# child keeps from its parent).
exec { 'mrtest make the source':
  command => '/bin/sh -c "mkdir -p /tmp/mrtest-apply/late-src/sub && echo a > /tmp/mrtest-apply/late-src/a && chmod 755 /tmp/mrtest-apply/late-src/a && echo b > /tmp/mrtest-apply/late-src/sub/b"',
  creates => '/tmp/mrtest-apply/late-src',
}
-> file { '/tmp/mrtest-apply/late-dst':
  ensure             => directory,
  recurse            => true,
  source             => '/tmp/mrtest-apply/late-src',
  source_permissions => use,
}
