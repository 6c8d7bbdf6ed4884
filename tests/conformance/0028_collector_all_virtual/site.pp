@notify { 'mrtest-all-1': }
@notify { 'mrtest-all-2': }
@file { '/tmp/mrtest-not-collected': }
Notify <| |>
