class profile::configs {
  file { '/tmp/mrtest-app1.conf': ensure => file, tag => 'mrtest_sensitive' }
  file { '/tmp/mrtest-app2.conf': ensure => file, tag => 'mrtest_sensitive', mode => '0644' }
  file { '/tmp/mrtest-readme': ensure => file, mode => '0644' }
}
