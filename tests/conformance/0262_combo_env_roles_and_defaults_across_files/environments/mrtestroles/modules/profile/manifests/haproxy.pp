class profile::haproxy (Array[String] $backends = ['192.0.2.21', '192.0.2.22']) {
  package { 'mrtest-haproxy': }
  file { '/tmp/mrtest-haproxy.cfg':
    content => $backends.map |$i, $b| { "server b${i} ${b}:80" }.join("\n"),
    require => Package['mrtest-haproxy'],
  }
  service { 'mrtest-haproxy': subscribe => File['/tmp/mrtest-haproxy.cfg'] }
}
