@file { '/tmp/mrtest-ct-a': ensure => file }
@file { '/tmp/mrtest-ct-b': ensure => file }
File <| title == '/tmp/mrtest-ct-b' |>
