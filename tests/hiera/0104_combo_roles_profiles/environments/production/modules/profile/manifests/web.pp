class profile::web (Hash $vhosts, Variant[Integer, String] $worker_processes) {
  class { 'nginx': worker_processes => $worker_processes }
  $vhosts.each |$name, $cfg| {
    notify { "mrtest-vhost-${name}": message => "port=${cfg['port']} ssl=${cfg['ssl']} docroot=${cfg['docroot']} aliases=${cfg['aliases']}" }
  }
}
