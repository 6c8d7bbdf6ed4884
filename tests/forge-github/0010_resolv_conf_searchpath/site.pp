# resolv.conf with a search path instead of a domain.
class { 'resolv_conf':
  nameservers => ['127.0.0.1', '192.0.2.53'],
  searchpath  => ['example.com', 'corp.example.com'],
}
