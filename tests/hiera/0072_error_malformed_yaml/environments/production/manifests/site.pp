class mrtest_ntp (Array $servers = lookup('mrtest::ntp_servers')) {
  notify { 'mrtest-ntp': message => "${servers}" }
}
include mrtest_ntp
