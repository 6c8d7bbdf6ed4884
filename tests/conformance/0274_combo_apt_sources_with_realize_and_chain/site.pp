class mrtestapt {
  exec { 'mrtest-apt-refresh': command => '/usr/bin/apt-get update', refreshonly => true }
}
define mrtestapt::source (String $location, String $release = $facts['os']['distro']['codename']) {
  include mrtestapt
  file { "/tmp/mrtest-sources.list.d/${title}.list":
    content => "deb ${location} ${release} main\n",
    notify  => Exec['mrtest-apt-refresh'],
  }
}
mrtestapt::source { 'mrtest-pgdg': location => 'http://apt.example/pg' }
mrtestapt::source { 'mrtest-grafana': location => 'http://apt.example/grafana', release => 'stable' }
package { 'mrtest-grafana': ensure => installed }
Mrtestapt::Source['mrtest-grafana'] -> Package['mrtest-grafana']
Exec['mrtest-apt-refresh'] -> Package <| |>
