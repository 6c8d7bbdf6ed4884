# A fragment changed, and one given to the file that was left absent,
# without making the changes; a service told of the change.
file { '/tmp/mrtest-rbtypes': ensure => directory }
concat { '/tmp/mrtest-rbtypes/a.conf': mode => '0600', notify => Exec['mrtest-told'] }
concat::fragment { 'a-second': target => '/tmp/mrtest-rbtypes/a.conf', content => "changed\n", order => '5' }
concat::fragment { 'a-first': target => '/tmp/mrtest-rbtypes/a.conf', content => "first\n", order => '10' }
concat { '/tmp/mrtest-rbtypes/blank.conf': }
concat { '/tmp/mrtest-rbtypes/none.conf': create_empty_file => false }
concat::fragment { 'none': target => '/tmp/mrtest-rbtypes/none.conf', content => "now\n" }
exec { 'mrtest-told': command => '/bin/sh -c "echo told >> /tmp/mrtest-rbtypes/told"', refreshonly => true }
