class { '::apache::mod::ssl': }
