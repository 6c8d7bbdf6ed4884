$results = {
  'hiera'                 => hiera('mrtest::port'),
  'hiera default'         => hiera('mrtest::no_such_key', 'hiera default'),
  'hiera override'        => hiera('mrtest::port', 0, 'nodes/mrtest.example.com'),
  'hiera lookup_options'  => hiera('mrtest::lo_merged'),
  'hiera lambda'          => hiera('mrtest::no_such_key') |$k| { "lambda default for ${k}" },
  'hiera_array'           => hiera_array('mrtest::packages'),
  'hiera_array scalar'    => hiera_array('mrtest::scalar'),
  'hiera_array default'   => hiera_array('mrtest::no_such_key', ['x']),
  'hiera_hash'            => hiera_hash('mrtest::sysctl'),
  'hiera_hash default'    => hiera_hash('mrtest::no_such_key', {'a' => 1}),
  'hiera dotted'          => hiera('mrtest::sysctl.vm.swappiness', 'dotted not dug'),
}
$results.each |$label, $value| {
  notify { "mrtest ${label}": message => "${type($value, 'generalized')} ${value}" }
}
hiera_include('classes')
