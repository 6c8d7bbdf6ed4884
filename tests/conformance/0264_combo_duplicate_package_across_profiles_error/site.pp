include profile::a
include profile::b
