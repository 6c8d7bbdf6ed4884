# A value the target's type refuses fails the provider that set it, and
# the target, which depends on it, is skipped.
mrtest_setter { 'mode':
  ensure => present,
  target => 'File[/tmp/mrtest-rbtypes/refused.txt]',
  field  => 'mode',
  value  => 'not-a-mode',
  before => File['/tmp/mrtest-rbtypes/refused.txt'],
}
file { '/tmp/mrtest-rbtypes/refused.txt': ensure => file, content => "kept\n" }
