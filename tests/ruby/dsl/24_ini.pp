# Puppet's INI model: a file with comments, a continued value and two
# sections; one key changed in place, one added to a section, one section
# added, one key removed. What is not touched stays as it was.
file { '/tmp/mrtest-rbtypes/repo.ini':
  ensure  => file,
  replace => false,
  content => "# mrtest repositories\n\n[base]\nname=Base\nbaseurl=http://a.example/base\n  http://b.example/base\nenabled = 0\n\n; updates follow\n[updates]\nname=Updates\ngpgcheck=1\n",
}
mrtest_ini { 'base/enabled':
  ensure => present,
  path   => '/tmp/mrtest-rbtypes/repo.ini',
  value  => '1',
}
mrtest_ini { 'updates/priority':
  ensure => present,
  path   => '/tmp/mrtest-rbtypes/repo.ini',
  value  => '10',
}
mrtest_ini { 'extras/name':
  ensure => present,
  path   => '/tmp/mrtest-rbtypes/repo.ini',
  value  => 'Extras',
}
mrtest_ini { 'updates/gpgcheck':
  ensure => absent,
  path   => '/tmp/mrtest-rbtypes/repo.ini',
}
