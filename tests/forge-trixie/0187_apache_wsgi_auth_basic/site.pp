# A Python WSGI application in its own daemon process group, with an admin
# location behind HTTP basic authentication.
class { 'apache':
  default_vhost => false,
}
class { 'apache::mod::wsgi':
  package_name => 'libapache2-mod-wsgi-py3',
  mod_path     => 'mod_wsgi.so',
}
include apache::mod::auth_basic
include apache::mod::authn_file
apache::vhost { 'mrtest-wsgi.example.com':
  port                   => 80,
  docroot                => '/srv/mrtest-www/wsgi',
  wsgi_application_group => '%{GLOBAL}',
  wsgi_daemon_process    => {
    'mrtest-wsgi' => {
      'processes'    => 2,
      'threads'      => 15,
      'display-name' => '%{GROUP}',
    },
  },
  wsgi_process_group     => 'mrtest-wsgi',
  wsgi_script_aliases    => { '/' => '/srv/mrtest-www/wsgi/app.wsgi' },
  directories            => [
    {
      'path'    => '/srv/mrtest-www/wsgi',
      'require' => 'all granted',
    },
    {
      'path'           => '/admin',
      'provider'       => 'location',
      'auth_type'      => 'Basic',
      'auth_name'      => 'mrtest admin',
      'auth_user_file' => '/etc/apache2/mrtest-htpasswd',
      'auth_require'   => 'valid-user',
    },
  ],
}
