# exec and tidy are not isomorphic: resources with different titles may
# share a command or a path, where two files with one path may not.
exec { 'reload-first': command => '/usr/sbin/service mrtest reload' }
exec { 'reload-second': command => '/usr/sbin/service mrtest reload' }
tidy { 'old-logs': path => '/tmp/mrtest-logs', age => '1w' }
tidy { 'big-logs': path => '/tmp/mrtest-logs', size => '1m' }
