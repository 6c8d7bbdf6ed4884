# openstacklib's generic Apache mod_wsgi vhost for a Python WSGI service,
# as the service modules use it, here for a site's own API.
# openstacklib ships os_service_default as an external fact (/etc/facter/facts.d),
# which the fixed facts lack: it is set at top scope, as an agent reports it.
$os_service_default = '<SERVICE DEFAULT>'
include apache
openstacklib::wsgi::apache { 'mrtest_api':
  bind_port          => 8999,
  group              => 'www-data',
  user               => 'www-data',
  ssl                => false,
  workers            => 2,
  wsgi_script_dir    => '/var/www/cgi-bin/mrtest',
  wsgi_script_file   => 'app.wsgi',
  wsgi_script_source => '/usr/bin/mrtest-api-wsgi',
}
