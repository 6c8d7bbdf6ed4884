include ::apache
include ::apache::params
