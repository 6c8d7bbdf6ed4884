# Congress's database, Keystone service user and endpoint, and its
# client. The service itself cannot be declared with Debian's modules:
# the congress class passes oslo::messaging::amqp a parameter
# (allow_insecure_clients) that this oslo release no longer has.
class { 'mysql::server': }
class { 'congress::db::mysql':
  password => 'mrtest-congress-db',
}
class { 'congress::keystone::auth':
  password   => 'mrtest-congress-keystone',
  public_url => 'http://mrtest.example.com:1789',
}
include congress::client
