File['/tmp/a'] {
  require +> Package['x'],
}
