define mrtesttagdef () {
  file { "/tmp/mrtest-tagdef-${title}": ensure => file }
}
