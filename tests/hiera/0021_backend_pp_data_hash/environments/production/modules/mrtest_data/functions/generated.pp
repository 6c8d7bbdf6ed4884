function mrtest_data::generated(Hash $options, Puppet::LookupContext $context) {
  $dc = $options['datacenter']
  $servers = Integer[1, $options['replicas']].map |$i| { "${options['ntp_prefix']}${i}.${dc}.example.com" }
  $base = {
    'ntp::servers'     => $servers,
    'mrtest::options'  => $options,
    'mrtest::dc'       => $dc,
    'mrtest::environment' => $context.environment_name,
    'mrtest::module'   => $context.module_name,
  }
  $dc ? {
    'paris' => $base + { 'mrtest::paris_only' => true },
    default => $base + { 'mrtest::fallback_only' => "for ${dc}" },
  }
}
