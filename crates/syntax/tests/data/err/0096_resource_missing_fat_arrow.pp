file { '/tmp/a':
  ensure file,
}
