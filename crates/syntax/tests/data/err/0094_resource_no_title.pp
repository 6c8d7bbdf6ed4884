file {
  ensure => file,
}
