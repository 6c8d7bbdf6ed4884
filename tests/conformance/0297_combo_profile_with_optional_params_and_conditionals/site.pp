class profile::proxy (
  Optional[String] $http_proxy = undef,
  Optional[Array[String]] $no_proxy = undef,
) {
  $lines = [
    $http_proxy ? { undef => undef, default => "http_proxy=${http_proxy}" },
    $no_proxy ? { undef => undef, default => "no_proxy=${no_proxy.join(',')}" },
  ].filter |$l| { $l != undef }
  file { '/tmp/mrtest-proxy.env': content => $lines.join("\n") }
}
class { 'profile::proxy': http_proxy => 'http://proxy.example:3128' }
