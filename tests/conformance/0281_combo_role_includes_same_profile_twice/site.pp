include role::a
include role::b
class role::a { include profile::common  include profile::only_a }
class role::b { include profile::common }
class profile::common { notify { 'mrtest-common': } }
class profile::only_a { notify { 'mrtest-only-a': require => Class['profile::common'] } }
