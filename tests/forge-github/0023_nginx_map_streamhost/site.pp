# nginx's other resources: a map of hostnames to backends, a TCP stream
# proxy and a configuration snippet.
class { 'nginx':
  stream => true,
}
nginx::resource::map { 'mrtest_backend':
  ensure   => present,
  default  => 'default.example.com',
  string   => '$http_host',
  mappings => {
    'a.example.com' => 'backend-a',
    'b.example.com' => 'backend-b',
  },
}
nginx::resource::upstream { 'mrtest-db':
  context => 'stream',
  members => {
    'db1' => { 'server' => '192.0.2.21', 'port' => 5432 },
  },
}
nginx::resource::streamhost { 'mrtest-db-proxy':
  listen_port => 5433,
  proxy       => 'mrtest-db',
}
nginx::resource::snippet { 'mrtest-headers':
  raw_content => "add_header X-Frame-Options DENY;\n",
}
