# A provider that drives a service through the provider a `service`
# resource it makes gets (rabbitmq's erlang cookie stops its service so):
# the service runs (its flag file is there), is stopped, and the mark is
# written.
file { '/tmp/mrtest-rbtypes/svc.flag': ensure => file, content => '' }
-> mrtest_drive { 'mrtest-driven':
  flag => '/tmp/mrtest-rbtypes/svc.flag',
}
