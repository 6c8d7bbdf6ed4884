# The Placement API served by Apache's mod_wsgi, with its database and its
# service user and endpoints in Keystone.
class { 'placement::db::mysql':
  password => 'mrtest-placement-db',
}
class { 'placement::db':
  database_connection => 'mysql+pymysql://placement:mrtest-placement-db@127.0.0.1/placement',
}
class { 'placement::keystone::auth':
  password   => 'mrtest-placement-keystone',
  public_url => 'http://mrtest.example.com:8778',
}
class { 'placement::keystone::authtoken':
  password => 'mrtest-placement-keystone',
}
include placement
include placement::api
class { 'placement::wsgi::apache':
  ssl => false,
}
