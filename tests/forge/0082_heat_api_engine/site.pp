# Heat orchestration: its API, the CloudFormation-compatible API and the
# engine, with a stack domain for the users it creates.
class { 'heat::db':
  database_connection => 'mysql+pymysql://heat:mrtest-heat-db@127.0.0.1/heat?charset=utf8',
}
# Declared before heat, which includes it.
class { 'heat::keystone::authtoken':
  password => 'mrtest-heat-keystone',
}
class { 'heat':
  default_transport_url => 'rabbit://heat:mrtest-rabbit@127.0.0.1:5672/',
}
class { 'heat::keystone::domain':
  domain_password => 'mrtest-heat-domain',
}
include heat::api
include heat::api_cfn
class { 'heat::engine':
  auth_encryption_key           => '0123456789abcdef0123456789abcdef',
  heat_metadata_server_url      => 'http://mrtest.example.com:8000',
  heat_waitcondition_server_url => 'http://mrtest.example.com:8000/v1/waitcondition',
}
