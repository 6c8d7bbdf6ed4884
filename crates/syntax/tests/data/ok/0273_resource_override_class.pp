Class['x'] {
  param => 1,
}
