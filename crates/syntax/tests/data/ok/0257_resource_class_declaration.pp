class { 'foo': }
