$pkg = $facts['os']['family'] ? {
  'RedHat' => 'mrtest-httpd',
  'Debian' => 'mrtest-apache2',
  default  => 'mrtest-web',
}
package { $pkg: ensure => installed }
notify { 'mrtest-cpus': message => "cpus=${facts['processors']['count']} virtual=${facts['is_virtual']}" }
