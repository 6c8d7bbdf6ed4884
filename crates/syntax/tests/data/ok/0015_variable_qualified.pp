notice($apache::params::port)
notice($::apache::params::port)
