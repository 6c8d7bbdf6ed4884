file { '/tmp/a':
  mode => '0644',
  mode => '0600',
}
