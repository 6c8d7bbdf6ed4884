# telegraf's defined types: inputs and a processor in their own files
# under telegraf.d, with the repository left unmanaged.
class { 'telegraf':
  manage_repo => false,
  outputs     => {
    'prometheus_client' => [{ 'listen' => ':9273' }],
  },
}
telegraf::input { 'nginx':
  options => [{ 'urls' => ['http://localhost/nginx_status'] }],
}
telegraf::input { 'mrtest_procstat':
  plugin_type => 'procstat',
  options     => [{ 'pattern' => 'mrtest-app' }],
}
telegraf::processor { 'rename':
  options => [{ 'replace' => [{ 'tag' => 'host', 'dest' => 'hostname' }] }],
}
