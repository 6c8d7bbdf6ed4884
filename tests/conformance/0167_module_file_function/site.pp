file { '/tmp/mrtest-static':
  ensure  => file,
  content => file('mrteststatic/banner.txt'),
}
