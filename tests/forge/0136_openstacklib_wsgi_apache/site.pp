# openstacklib's generic Apache mod_wsgi vhost for a Python WSGI service,
# as the service modules use it, here for a site's own API.
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
