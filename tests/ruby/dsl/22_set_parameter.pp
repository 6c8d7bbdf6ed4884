# A provider sets a parameter of another resource: the file takes the
# content when it is applied.
mrtest_setter { 'content':
  ensure => present,
  target => 'File[/tmp/mrtest-rbtypes/set.txt]',
  field  => 'content',
  value  => "set by mrtest_setter\n",
  before => File['/tmp/mrtest-rbtypes/set.txt'],
}
file { '/tmp/mrtest-rbtypes/set.txt': ensure => file }
