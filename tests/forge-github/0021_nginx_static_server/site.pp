# nginx serving a static site (nginx::resource::server with a document
# root) and an extra location with its own root and index.
class { 'nginx':
  worker_processes => 2,
  server_tokens    => 'off',
}
nginx::resource::server { 'www.example.com':
  www_root    => '/var/www/mrtest',
  server_name => ['www.example.com', 'example.com'],
}
nginx::resource::location { 'mrtest-static':
  server      => 'www.example.com',
  location    => '/static/',
  www_root    => '/srv/mrtest-assets',
  index_files => ['index.html'],
}
