Host <<| tag == 'db' |>> {
  ensure => present,
}
