class mrtest_port_user (Mrtesttypes::Port $port = 443) {
  notify { 'mrtest-port': message => "port ${port}" }
}
include mrtest_port_user
