# An MCollective server restricting an agent with action policies: only
# an operator may restart services, anyone may query their status.
class { 'mcollective':
  middleware_hosts => ['broker.example.com'],
}
mcollective::actionpolicy { 'service':
  default => 'deny',
}
mcollective::actionpolicy::rule { 'mrtest-operator restarts':
  agent    => 'service',
  callerid => 'cert=mrtest-operator',
  actions  => 'restart start stop',
}
mcollective::actionpolicy::rule { 'anyone queries':
  agent   => 'service',
  actions => 'status',
}
