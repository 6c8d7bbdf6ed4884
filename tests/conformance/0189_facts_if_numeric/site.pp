if versioncmp($facts['os']['release']['full'], '11') >= 0 {
  notify { 'mrtest-modern': }
}
if $facts['memory']['system']['total_bytes'] > 2 * 1024 * 1024 * 1024 {
  notify { 'mrtest-big-memory': }
}
if $facts['processors']['count'] == 2 and $facts['is_virtual'] {
  notify { 'mrtest-small-vm': }
}
