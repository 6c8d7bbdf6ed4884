# The tea module holds only data types; a defined type of the site
# validates its parameters with them (a syslog facility, an IPv4 address,
# a port, an absolute path and an HTTPS URL).
define mrtest_syslog_target (
  Tea::Syslogfacility $facility,
  Tea::Ipv4           $address,
  Tea::Port           $port = 514,
  Tea::Absolutepath   $spool = '/var/spool/rsyslog',
  Optional[Tea::Httpsurl] $status_url = undef,
) {
  file { "/etc/rsyslog.d/mrtest-${title}.conf":
    ensure  => file,
    content => "${facility}.* @@${address}:${port}\n",
  }
}
mrtest_syslog_target { 'central':
  facility   => 'local0',
  address    => '192.0.2.50',
  port       => 6514,
  status_url => 'https://loghost.example.com/status',
}
mrtest_syslog_target { 'backup':
  facility => 'daemon',
  address  => '192.0.2.51',
}
