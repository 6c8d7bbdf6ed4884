@@file { '/tmp/mrtest-exported-local':
  ensure => file,
}
File <| title == '/tmp/mrtest-exported-local' |>
notify { 'mrtest-exported-local-marker': }
