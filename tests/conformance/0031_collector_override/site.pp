file { '/tmp/mrtest-co-1': ensure => file, tag => 'mrtest_secure', mode => '0644' }
file { '/tmp/mrtest-co-2': ensure => file, tag => 'mrtest_secure' }
file { '/tmp/mrtest-co-3': ensure => file, mode => '0644' }
File <| tag == 'mrtest_secure' |> {
  mode  => '0600',
  owner => 'root',
}
