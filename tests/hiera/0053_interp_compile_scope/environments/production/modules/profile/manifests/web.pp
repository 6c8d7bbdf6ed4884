class profile::web (
  Array[String] $packages,
  String $docroot,
  String $address = '192.0.2.80',
  String $listen = 'unset',
) {
  $local_setting = 'set in profile::web'
  notify { 'mrtest-web-params': message => "packages=${packages} docroot=${docroot} listen=${listen}" }
  notify { 'mrtest-web-local': message => lookup('mrtest::local_var') }
  notify { 'mrtest-web-calling': message => lookup('mrtest::calling') }
  notify { 'mrtest-web-node': message => lookup('mrtest::node_var') }
}
