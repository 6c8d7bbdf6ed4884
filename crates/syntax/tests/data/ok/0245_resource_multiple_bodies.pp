file {
  '/tmp/a': ensure => file;
  '/tmp/b': ensure => directory;
}
