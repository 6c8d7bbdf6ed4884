file { '/tmp/a':
  mode => $facts['os'] ? { 'windows' => undef, default => '0644' },
}
