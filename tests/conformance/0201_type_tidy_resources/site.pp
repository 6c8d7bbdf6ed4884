tidy { '/tmp/mrtest-tidy':
  age     => '1w',
  recurse => 2,
  matches => ['*.log', '*.gz'],
  rmdirs  => false,
  type    => 'mtime',
}
resources { 'mrtest_dummy_type_name_is_title': }
resources { 'host':
  purge => true,
}
