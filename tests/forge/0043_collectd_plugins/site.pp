# collectd with CPU, memory and network plugins.
class { 'collectd':
  purge           => true,
  recurse         => true,
  purge_config    => true,
  minimum_version => '5.4',
}
class { 'collectd::plugin::cpu': }
class { 'collectd::plugin::memory': }
class { 'collectd::plugin::network':
  servers => { '192.0.2.10' => { 'port' => 25826 } },
}
