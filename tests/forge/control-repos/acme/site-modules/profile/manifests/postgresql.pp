# A PostgreSQL server. The server's roles, access rules and settings are
# the postgresql::server class's own hashes (deep-merged from Hiera); the
# databases, each with its owner and the grants to other roles, come from
# $databases.
class profile::postgresql (
  Hash[String[1], Struct[{
    owner              => String[1],
    password           => String[1],
    Optional[encoding] => String[1],
    Optional[comment]  => String[1],
    Optional[grants]   => Hash[String[1], String[1]],
  }]] $databases = {},
) {
  include postgresql::globals
  include postgresql::server

  $databases.each |String $name, Hash $db| {
    postgresql::server::db { $name:
      user     => $db['owner'],
      password => postgresql::postgresql_password($db['owner'], $db['password']),
      encoding => $db['encoding'],
      comment  => $db['comment'],
    }
    $db.get('grants', {}).each |String $grantee, String $privilege| {
      postgresql::server::database_grant { "${name} to ${grantee}":
        db        => $name,
        role      => $grantee,
        privilege => $privilege,
        require   => Postgresql::Server::Role[$grantee],
      }
    }
  }

  concat::fragment { 'motd-postgresql':
    target  => '/etc/motd',
    content => "PostgreSQL ${postgresql::globals::version}, databases: ${databases.keys.sort.join(', ')}\n",
    order   => '20',
  }
}
