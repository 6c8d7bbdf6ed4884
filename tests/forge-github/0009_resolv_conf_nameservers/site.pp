# /etc/resolv.conf with name servers, a domain and options (resolv_conf).
class { 'resolv_conf':
  nameservers => ['192.0.2.53', '198.51.100.53'],
  domainname  => 'example.com',
  options     => ['timeout:2', 'attempts:3', 'rotate'],
}
