# A failing exec: what depends on it is skipped, the rest is applied.
file { '/tmp/mrtest-apply': ensure => directory }
exec { '/bin/false': require => File['/tmp/mrtest-apply'] }
file { '/tmp/mrtest-apply/after-false':
  content => "never\n",
  require => Exec['/bin/false'],
}
file { '/tmp/mrtest-apply/unrelated': content => "written\n", require => File['/tmp/mrtest-apply'] }
