# The apt class purging sources it does not manage, with a proxy.
class { 'apt':
  purge => { 'sources.list' => true, 'sources.list.d' => true },
  proxy => { 'host' => 'proxy.example.com', 'port' => 3128 },
}
