class profile::sysctl (Hash[String, Scalar] $settings = {}) {
  Exec { path => ['/usr/sbin', '/sbin'], refreshonly => true }
  $settings.each |$key, $value| {
    $file = "/tmp/mrtest-sysctl.d/60-${regsubst($key, '\.', '-', 'G')}.conf"
    file { $file: content => "${key} = ${value}\n" }
    ~> exec { "mrtest-sysctl-${key}": command => "sysctl -p ${file}" }
  }
}
class { 'profile::sysctl':
  settings => { 'net.ipv4.ip_forward' => 1, 'vm.swappiness' => '10' },
}
