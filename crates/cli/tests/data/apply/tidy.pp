# Tidy removes old temporary files below a directory, and nothing else.
tidy { '/tmp/mrtest-apply/cache':
  recurse => true,
  matches => ['*.tmp'],
  age     => '1w',
  type    => mtime,
}
