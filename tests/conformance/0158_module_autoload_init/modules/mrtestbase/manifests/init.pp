class mrtestbase {
  file { '/tmp/mrtest-base-motd': ensure => file, content => "base\n" }
}
