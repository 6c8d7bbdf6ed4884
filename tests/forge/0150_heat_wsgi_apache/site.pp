# Heat's APIs served by Apache's mod_wsgi rather than by their own
# services.
class { 'heat::keystone::authtoken':
  password => 'mrtest-heat-keystone',
}
class { 'heat':
  default_transport_url => 'rabbit://heat:mrtest-rabbit@127.0.0.1:5672/',
}
class { 'heat::api':
  service_name => 'httpd',
}
class { 'heat::api_cfn':
  service_name => 'httpd',
}
include apache
class { 'heat::wsgi::apache_api':
  workers => 2,
}
class { 'heat::wsgi::apache_api_cfn':
  workers => 2,
}
class { 'heat::engine':
  auth_encryption_key => 'fedcba9876543210fedcba9876543210',
}
