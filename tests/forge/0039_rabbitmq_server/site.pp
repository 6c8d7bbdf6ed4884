# RabbitMQ with a vhost, a user and permissions.
class { 'rabbitmq':
  port              => 5672,
  delete_guest_user => true,
  repos_ensure      => false,
}
rabbitmq_vhost { 'myvhost':
  ensure => present,
}
rabbitmq_user { 'dan':
  admin    => true,
  password => 'bar',
}
rabbitmq_user_permissions { 'dan@myvhost':
  configure_permission => '.*',
  read_permission      => '.*',
  write_permission     => '.*',
}
