class mrtest_ntp (
  Array[String] $servers,
  Boolean $iburst = true,
) {
  file { '/tmp/mrtest-ntp.conf':
    content => join($servers.map |$s| { "server ${s}${if $iburst { ' iburst' } else { '' }}" }, "\n"),
  }
}
class { 'mrtest_ntp':
  servers => ['0.mrtest.pool', '1.mrtest.pool'],
}
