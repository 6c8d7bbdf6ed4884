# Two files with different titles but one path are one file declared twice.
file { 'first': path => '/tmp/mrtest-clash' }
file { 'second': path => '/tmp/mrtest-clash' }
