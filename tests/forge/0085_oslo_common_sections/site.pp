# oslo's defined types writing the common sections of a service's
# configuration, here Keystone's: messaging over RabbitMQ, logging, cache
# and the policy enforcer.
oslo::messaging::default { 'keystone_config':
  transport_url => 'rabbit://keystone:mrtest-rabbit@127.0.0.1:5672/',
}
oslo::messaging::rabbit { 'keystone_config':
  rabbit_use_ssl      => false,
  amqp_durable_queues => true,
}
oslo::log { 'keystone_config':
  debug      => false,
  log_dir    => '/var/log/keystone',
  use_syslog => false,
}
oslo::cache { 'keystone_config':
  enabled          => true,
  backend          => 'dogpile.cache.memcached',
  memcache_servers => ['127.0.0.1:11211'],
}
oslo::policy { 'keystone_config':
  enforce_scope => true,
  policy_file   => '/etc/keystone/policy.yaml',
}
