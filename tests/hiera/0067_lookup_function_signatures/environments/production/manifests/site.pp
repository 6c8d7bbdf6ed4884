$results = {
  'name only'                  => lookup('mrtest::port'),
  'array of names'             => lookup(['mrtest::no_such_key', 'mrtest::port']),
  'name and type'              => lookup('mrtest::packages', Array[String]),
  'merge unique'               => lookup('mrtest::packages', Array[String], 'unique'),
  'merge hash'                 => lookup('mrtest::sysctl', Hash, 'hash'),
  'merge deep'                 => lookup('mrtest::users', Hash, 'deep'),
  'merge deep options'         => lookup('mrtest::users', Hash, { 'strategy' => 'deep', 'sort_merged_arrays' => true }),
  'default value'              => lookup('mrtest::no_such_key', String, 'first', 'the default'),
  'default undef'              => lookup('mrtest::no_such_key', Optional[String], 'first', undef),
  'default for found key'      => lookup('mrtest::port', Integer, 'first', 0),
  'found undef with default'   => lookup('mrtest::nothing', Optional[String], 'first', 'the default'),
  'lambda default'             => lookup('mrtest::no_such_key') |$key| { "computed default for ${key}" },
  'lambda not called'          => lookup('mrtest::port') |$key| { 'lambda was called' },
  'type and lambda'            => lookup('mrtest::no_such_key', Integer) |$key| { 42 },
  'options hash'               => lookup({ 'name' => 'mrtest::packages', 'merge' => 'unique' }),
  'options hash default'       => lookup({ 'name' => 'mrtest::no_such_key', 'default_value' => 'hash default' }),
  'options default_values_hash' => lookup({ 'name' => 'mrtest::no_such_key', 'default_values_hash' => { 'mrtest::no_such_key' => 'from default_values_hash' } }),
  'default_values_hash miss'   => lookup({ 'name' => 'mrtest::other_missing', 'default_values_hash' => { 'x' => 1 }, 'default_value' => 'plain default' }),
  'options names array'        => lookup({ 'name' => ['mrtest::no_such_key', 'mrtest::port'], 'value_type' => Integer }),
  'options hash and lambda'    => lookup({ 'name' => 'mrtest::no_such_key' }) |$key| { "lambda for ${key}" },
  'name and options hash'      => lookup('mrtest::sysctl', { 'merge' => 'hash', 'value_type' => Hash }),
  'dotted key'                 => lookup('mrtest::users.mrtest-alice.groups'),
  'dotted key merge'           => lookup('mrtest::users.mrtest-alice.groups', Array, 'deep'),
}
$results.each |$label, $value| {
  notify { "mrtest ${label}": message => "${type($value, 'generalized')} ${value}" }
}
