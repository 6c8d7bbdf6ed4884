# A reference with an array of titles names each; a file is found with or
# without its trailing slash.
$l = ['a', 'b']
notice(File[$l])
notice(File[['x']])
@file { '/tmp/mrtest-d': ensure => directory }
notice(defined(File['/tmp/mrtest-d/']))
