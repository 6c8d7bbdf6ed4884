# Class parameters typed with stdlib's data types.
class mrtest::web (
  Stdlib::Port $port = 8080,
  Stdlib::Absolutepath $root = '/srv/www',
  Stdlib::HTTPUrl $upstream = 'http://localhost:3000',
  Stdlib::IP::Address::V4 $listen = '192.0.2.2',
  Stdlib::Ensure::Service $service_ensure = 'running',
) {
  file { $root: ensure => directory }
  notify { "listen ${listen}:${port} proxy ${upstream}": }
  service { 'web': ensure => $service_ensure }
}
include mrtest::web
