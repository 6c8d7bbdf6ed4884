file { '/tmp/a':
  require +> Package['x'],
}
