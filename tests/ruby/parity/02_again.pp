# The same again: nothing changes.
file { '/tmp/mrtest-rbtypes': ensure => directory }
file { '/tmp/mrtest-rbtypes/f.conf': content => "old=1\nb=0\n", replace => false }
file_line { 'a': path => '/tmp/mrtest-rbtypes/f.conf', line => 'a=1' }
file_line { 'b': path => '/tmp/mrtest-rbtypes/f.conf', line => 'b=2', match => '^b=' }
file_line { 'gone': ensure => absent, path => '/tmp/mrtest-rbtypes/f.conf', line => 'old=1' }
ini_setting { 's1': path => '/tmp/mrtest-rbtypes/i.ini', section => 'main', setting => 'x', value => '1' }
ini_setting { 's2':
  path              => '/tmp/mrtest-rbtypes/i.ini',
  section           => 'other',
  setting           => 'y',
  value             => 'two',
  key_val_separator => ': ',
}
ini_subsetting { 'sub':
  path       => '/tmp/mrtest-rbtypes/i.ini',
  section    => 'main',
  setting    => 'opts',
  subsetting => '-Xmx',
  value      => '512m',
}
concat_file { '/tmp/mrtest-rbtypes/c.conf': tag => 'mrtest-c', mode => '0640' }
concat_fragment { 'c2': target => '/tmp/mrtest-rbtypes/c.conf', content => "second\n", order => '20' }
concat_fragment { 'c1': tag => 'mrtest-c', content => "first\n", order => '10' }
mount { '/mnt/mrtest-rbtypes':
  ensure  => present,
  device  => '/dev/mrtest',
  fstype  => 'ext4',
  options => 'defaults',
  target  => '/tmp/mrtest-rbtypes/fstab',
}
