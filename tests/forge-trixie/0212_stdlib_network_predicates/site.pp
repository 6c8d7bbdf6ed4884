# Decisions taken from the host's network facts with stdlib's predicates:
# stdlib::has_interface_with, stdlib::ip_in_range, stdlib::start_with,
# stdlib::end_with and stdlib::os_version_gte.
$ip = $facts['networking']['ip']

if stdlib::has_interface_with('lo') and stdlib::has_interface_with('ipaddress', $ip) {
  notify { 'mrtest-has-primary': message => "eth0 carries ${ip}" }
}
$in_docs_range = stdlib::ip_in_range($ip, '192.0.2.0/24')
$in_private    = stdlib::ip_in_range($ip, ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'])
$is_example    = stdlib::end_with($facts['networking']['fqdn'], ['.example.com', '.example.org'])
$is_mrtest     = stdlib::start_with($facts['networking']['hostname'], 'mrtest')
$modern_debian = stdlib::os_version_gte('Debian', '12')

file { '/etc/mrtest-netinfo':
  ensure  => file,
  content => @("END"),
    docs_range=${in_docs_range}
    private=${in_private}
    example_domain=${is_example}
    mrtest_host=${is_mrtest}
    debian_12_or_later=${modern_debian}
    has_netmask=${stdlib::has_interface_with('netmask', '255.255.255.0')}
    | END
}
