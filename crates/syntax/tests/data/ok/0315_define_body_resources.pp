define site::user ($home = "/home/${title}") {
  file { $home: ensure => directory }
}
