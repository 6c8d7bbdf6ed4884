file { '/tmp/mrtest-badval':
  ensure => 'sideways',
  mode   => 'not-a-mode',
}
service { 'mrtest-badval': enable => 'sometimes' }
