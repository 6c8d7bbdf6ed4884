# A local MariaDB server (the mysql module's server class, its settings
# deep-merged from Hiera), for the nodes that keep their database.
class profile::mysql {
  include mysql::server

  firewall { '210 reject mysql from outside':
    proto   => 'tcp',
    dport   => 3306,
    iniface => '! lo',
    action  => 'reject',
  }
}
