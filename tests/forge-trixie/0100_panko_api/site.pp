# Panko's event API served by Apache's mod_wsgi. panko 18's
# wsgi::apache defaults the access log file and format to false, which
# apache 12's vhost rejects (it wants a string): both are given here.
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
  ssl               => false,
  access_log_file   => 'panko_wsgi_access.log',
  access_log_format => 'combined',
}
