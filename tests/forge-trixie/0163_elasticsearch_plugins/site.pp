# Plugins installed by name, from a URL and through a proxy, restarting the
# service when they change; the repository is managed elsewhere.
class { 'elasticsearch':
  manage_repo       => false,
  restart_on_change => true,
  datadir           => ['/srv/mrtest-es/data1', '/srv/mrtest-es/data2'],
}
elasticsearch::plugin { 'analysis-icu': }
elasticsearch::plugin { 'mapper-size':
  proxy_host => 'proxy.example.com',
  proxy_port => 3128,
}
elasticsearch::plugin { 'mrtest-ingest-custom':
  url => 'https://artifacts.example.com/es/mrtest-ingest-custom-8.11.3.zip',
}
