File['x'] {
  mode => '0600',
}
