# Removed.
file_line { 'b': ensure => absent, path => '/tmp/mrtest-rbtypes/f.conf', line => 'b=2' }
ini_setting { 's2': ensure => absent, path => '/tmp/mrtest-rbtypes/i.ini', section => 'other', setting => 'y' }
ini_subsetting { 'sub':
  ensure     => absent,
  path       => '/tmp/mrtest-rbtypes/i.ini',
  section    => 'main',
  setting    => 'opts',
  subsetting => '-Xmx',
}
concat_file { '/tmp/mrtest-rbtypes/c.conf': ensure => absent }
mount { '/mnt/mrtest-rbtypes': ensure => absent, target => '/tmp/mrtest-rbtypes/fstab' }
