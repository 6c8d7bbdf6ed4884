# The monitoring agent, new on web servers.
class profile::monitoring (
  String $server = 'monitor.example.com',
) {
  package { 'prometheus-node-exporter':
    ensure => installed,
  }
  file { '/etc/default/prometheus-node-exporter':
    ensure  => file,
    content => "ARGS=\"--web.listen-address=:9100\"\n# scraped by ${server}\n",
    notify  => Service['prometheus-node-exporter'],
  }
  service { 'prometheus-node-exporter':
    ensure => running,
    enable => true,
  }
}
