class postgresql (String $package, Integer $port, Integer $max_connections, Hash $settings) {
  notify { 'mrtest-postgresql': message => "package=${package} port=${port} max_connections=${max_connections} settings=${settings}" }
  notify { 'mrtest-postgresql-settings-hash-merge': message => "${lookup('postgresql::settings', Hash, 'hash')}" }
}
