# camptocamp-augeas's augeas() function (Debian ships it inside the
# augeas_core module) editing text at compile time through a lens: an
# alias added to the localhost entry of a hosts file and a sysctl value
# changed, before the files are written.
$hosts = "127.0.0.1 localhost\n192.0.2.5 mrtest.example.com\n"
file { '/etc/mrtest-hosts':
  ensure  => file,
  content => augeas($hosts, 'Hosts.lns', [
    'set *[ipaddr = "127.0.0.1"]/alias[last()+1] mrtest-local',
    'set *[canonical = "mrtest.example.com"]/alias mrtest',
  ]),
}
$sysctl = "vm.swappiness = 60\n"
file { '/etc/sysctl.d/99-mrtest.conf':
  ensure  => file,
  content => augeas($sysctl, 'Sysctl.lns', ['set vm.swappiness 10']),
}
