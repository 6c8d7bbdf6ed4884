define mrtestvhost (
  Integer $port = 80,
  Boolean $ssl  = false,
) {
  include mrtestvhost::server
  file { "/tmp/mrtest-sites/${title}.conf":
    ensure  => file,
    content => "server_name ${title}; listen ${port}${if $ssl { ' ssl' }};\n",
    require => Package['mrtest-httpd'],
    notify  => Service['mrtest-httpd'],
  }
  if $ssl {
    file { "/tmp/mrtest-certs/${title}.pem":
      ensure => file,
      mode   => '0600',
      before => File["/tmp/mrtest-sites/${title}.conf"],
    }
  }
}
