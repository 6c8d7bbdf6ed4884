define mrtest::tagdef () {
  notify { "mrtest-tagdef-${title}": }
  file { "/tmp/mrtest-tagdef-${title}": ensure => file }
}
class mrtest_tagholder {
  mrtest::tagdef { 'inner': tag => 'mrtest_instance_tag' }
}
include mrtest_tagholder
