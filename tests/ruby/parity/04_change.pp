# The changes made.
file_line { 'a': path => '/tmp/mrtest-rbtypes/f.conf', line => 'a=2', match => '^a=' }
ini_setting { 's1': path => '/tmp/mrtest-rbtypes/i.ini', section => 'main', setting => 'x', value => '2' }
ini_subsetting { 'sub':
  path       => '/tmp/mrtest-rbtypes/i.ini',
  section    => 'main',
  setting    => 'opts',
  subsetting => '-Xmx',
  value      => '1g',
}
concat_file { '/tmp/mrtest-rbtypes/c.conf': tag => 'mrtest-c', mode => '0640' }
concat_fragment { 'c2': target => '/tmp/mrtest-rbtypes/c.conf', content => "changed\n", order => '5' }
concat_fragment { 'c1': tag => 'mrtest-c', content => "first\n", order => '10' }
mount { '/mnt/mrtest-rbtypes':
  ensure  => present,
  device  => '/dev/mrtest',
  fstype  => 'ext4',
  options => 'defaults,noatime',
  target  => '/tmp/mrtest-rbtypes/fstab',
}
