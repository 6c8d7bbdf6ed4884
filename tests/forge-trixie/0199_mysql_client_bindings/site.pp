# Only the MariaDB client on an application host, with the Perl and Python
# bindings and the client development headers.
class { 'mysql::client':
  package_name    => 'mariadb-client',
  bindings_enable => false,
}
class { 'mysql::bindings':
  perl_enable   => true,
  python_enable => true,
  client_dev    => true,
}
