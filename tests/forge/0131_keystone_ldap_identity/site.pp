# Keystone taking its users and groups from a read-only LDAP directory
# (the identity backend), the rest staying in SQL.
class { 'keystone::db':
  database_connection => 'mysql+pymysql://keystone:mrtest-keystone-db@127.0.0.1/keystone',
}
class { 'keystone': }
class { 'keystone::ldap':
  url                 => 'ldap://ldap.example.com',
  user                => 'cn=keystone,ou=services,dc=example,dc=com',
  password            => 'mrtest-ldap-bind',
  suffix              => 'dc=example,dc=com',
  query_scope         => 'sub',
  user_tree_dn        => 'ou=people,dc=example,dc=com',
  user_objectclass    => 'inetOrgPerson',
  user_id_attribute   => 'uid',
  user_name_attribute => 'uid',
  user_mail_attribute => 'mail',
  group_tree_dn       => 'ou=groups,dc=example,dc=com',
  group_objectclass   => 'groupOfNames',
  use_tls             => true,
  tls_req_cert        => 'demand',
  identity_driver     => 'ldap',
}
