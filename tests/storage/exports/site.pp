# A small fleet sharing resources through storeconfigs, as sites do:
# every node publishes its SSH host key and collects everyone's; web
# nodes join the load balancer's pool (puppetlabs-haproxy's own exported
# balancer members, collected by haproxy::listen) and publish monitoring
# checks, which the monitoring node collects by tags; the database node
# publishes a check of its own. scripts/puppetdb-record-exports compiles
# the nodes in order, twice, on puppetserver with PuppetDB.

@@sshkey { $trusted['certname']:
  ensure       => present,
  type         => 'ssh-ed25519',
  key          => $facts['ssh']['ed25519']['key'],
  host_aliases => [$facts['networking']['hostname'], $facts['networking']['ip']],
  tag          => ['mrtest_hostkeys', $facts['mrtest_site']],
}
Sshkey <<| tag == 'mrtest_hostkeys' |>> {
  target => '/etc/ssh/ssh_known_hosts',
}

node /^web\d+/ {
  @@haproxy::balancermember { $trusted['certname']:
    listening_service => 'mrtest_web',
    server_names      => $facts['networking']['hostname'],
    ipaddresses       => $facts['networking']['ip'],
    ports             => '8080',
    options           => 'check',
  }
  @@file { "/etc/mrtest-monitoring/${trusted['certname']}-http.cfg":
    ensure  => file,
    content => "check_http ${facts['networking']['ip']}\n",
    tag     => ['mrtest_check', 'http'],
  }
  @@host { $trusted['certname']:
    ip  => $facts['networking']['ip'],
    tag => 'mrtest_hosts',
  }
  # Titled otherwise than its path: PuppetDB keeps the path as an alias,
  # which the collecting node's catalog shows.
  @@file { "mrtest-banner-${facts['networking']['hostname']}":
    path    => "/etc/mrtest-monitoring/${trusted['certname']}-banner.cfg",
    content => "${trusted['certname']}\n",
    tag     => ['mrtest_check', 'http'],
  }
}

node /^db\d+/ {
  @@file { "/etc/mrtest-monitoring/${trusted['certname']}-pgsql.cfg":
    ensure  => file,
    content => "check_pgsql ${facts['networking']['ip']}\n",
    tag     => ['mrtest_check', 'pgsql'],
  }
  @@host { $trusted['certname']:
    ip  => $facts['networking']['ip'],
    tag => 'mrtest_hosts',
  }
}

node /^lb\d+/ {
  class { 'haproxy': }
  haproxy::listen { 'mrtest_web':
    collect_exported => true,
    ipaddress        => $facts['networking']['ip'],
    ports            => '80',
  }
  Host <<| tag == 'mrtest_hosts' and title != 'db01.example.com' |>>
}

node /^mon\d+/ {
  file { '/etc/mrtest-monitoring':
    ensure => directory,
  }
  File <<| tag == 'mrtest_check' and (tag == 'http' or tag == 'pgsql') |>> {
    require => File['/etc/mrtest-monitoring'],
  }
  Host <<| (tag == 'mrtest_hosts' and title == 'db01.example.com') or ip == '192.0.2.12' |>>
}
