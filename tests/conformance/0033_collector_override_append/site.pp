file { '/tmp/mrtest-base': ensure => directory }
file { '/tmp/mrtest-base/sub': ensure => file, require => File['/tmp/mrtest-base'] }
notify { 'mrtest-first': }
File <| title == '/tmp/mrtest-base/sub' |> {
  require +> Notify['mrtest-first'],
}
