# Panko's event API served by Apache's mod_wsgi.
class { 'panko::db':
  database_connection => 'mysql+pymysql://panko:mrtest-panko-db@127.0.0.1/panko',
}
include panko
class { 'panko::keystone::authtoken':
  password => 'mrtest-panko-keystone',
}
class { 'panko::api':
  service_name => 'httpd',
}
include apache
class { 'panko::wsgi::apache':
  ssl => false,
}
