# A database server: PostgreSQL with the databases of the node's data.
class role::db {
  include profile::base
  include profile::postgresql
}
