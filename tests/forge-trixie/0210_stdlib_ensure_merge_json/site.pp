# One boolean switching a whole feature on or off through stdlib::ensure,
# its settings built with stdlib::merge (of hashes, and iterating with a
# block) and written as pretty JSON.
$enable_exporter = true
$defaults  = { 'listen' => '127.0.0.1:9100', 'log_level' => 'info', 'debug' => false }
$overrides = { 'log_level' => 'warn', 'collectors' => ['cpu', 'meminfo'], 'debug' => undef }

$settings = stdlib::merge($defaults, $overrides)
$collectors = { 'cpu' => true, 'zfs' => false, 'meminfo' => true, 'nfs' => false }
$enabled_only = stdlib::merge($collectors) |$acc, $name, $on| {
  if $on { { $name => 'enabled' } }
}
$tag_counts = ['web', 'db', 'web', 'cache', 'web'].stdlib::merge |$acc, $t| {
  { $t => $acc[$t].lest || { 0 } + 1 }
}

package { 'prometheus-node-exporter':
  ensure => stdlib::ensure($enable_exporter, 'package'),
}
file { '/etc/mrtest-exporter':
  ensure => stdlib::ensure($enable_exporter, 'directory'),
}
file { '/etc/mrtest-exporter/config.json':
  ensure  => stdlib::ensure($enable_exporter, 'file'),
  content => stdlib::to_json_pretty($settings, true),
}
file { '/etc/mrtest-exporter/collectors.json':
  ensure  => stdlib::ensure($enable_exporter),
  content => stdlib::to_json_pretty($enabled_only, false, { 'indent' => '    ' }),
}
file { '/etc/mrtest-exporter/tags.json':
  ensure  => stdlib::ensure($enable_exporter, 'file'),
  content => stdlib::to_json_pretty($tag_counts),
}
file { '/etc/mrtest-exporter/current':
  ensure => stdlib::ensure(false, 'link'),
}
service { 'prometheus-node-exporter':
  ensure => stdlib::ensure($enable_exporter, 'service'),
}
