# MySQL users, grants and databases given as hashes, and the client.
class { 'mysql::server':
  root_password => 'strongpassword',
  users         => {
    'someuser@localhost' => {
      ensure        => 'present',
      password_hash => '*F3A2A51A9B0F2BE2468926B4132313728C250DBF',
    },
  },
  grants        => {
    'someuser@localhost/somedb.*' => {
      ensure     => 'present',
      options    => ['GRANT'],
      privileges => ['SELECT', 'INSERT', 'UPDATE', 'DELETE'],
      table      => 'somedb.*',
      user       => 'someuser@localhost',
    },
  },
  databases     => {
    'somedb' => { ensure => 'present', charset => 'utf8' },
  },
}
include mysql::client
