# Changes, without making them.
file_line { 'a': path => '/tmp/mrtest-rbtypes/f.conf', line => 'a=2', match => '^a=' }
ini_setting { 's1': path => '/tmp/mrtest-rbtypes/i.ini', section => 'main', setting => 'x', value => '2' }
ini_subsetting { 'sub':
  path       => '/tmp/mrtest-rbtypes/i.ini',
  section    => 'main',
  setting    => 'opts',
  subsetting => '-Xmx',
  value      => '1g',
}
