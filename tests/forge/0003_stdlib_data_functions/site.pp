# Data manipulation functions from stdlib, their results written to resources.
$defaults = { 'owner' => 'root', 'group' => 'root', 'mode' => '0644' }
$settings = merge($defaults, { 'mode' => '0600' })
file { '/etc/app.conf':
  ensure  => file,
  *       => $settings,
  content => join(sort(unique(['b', 'a', 'c', 'a'])), ','),
}
notify { 'facts':
  message => "${pick($facts['nonexistent'], 'fallback')} ${to_json({'a' => [1, 2]})} ${delete_undef_values({'x' => undef, 'y' => 1})}",
}
