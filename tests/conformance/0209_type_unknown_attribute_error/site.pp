file { '/tmp/mrtest-badattr':
  ensure   => file,
  colour   => 'blue',
}
