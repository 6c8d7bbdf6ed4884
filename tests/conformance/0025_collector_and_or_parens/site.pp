@package { 'mrtest-pkg-a': ensure => installed, provider => 'apt' }
@package { 'mrtest-pkg-b': ensure => latest, provider => 'apt' }
@package { 'mrtest-pkg-c': ensure => installed, provider => 'pip' }
@package { 'mrtest-pkg-d': ensure => absent, provider => 'pip' }
Package <| (provider == 'apt' and ensure == 'latest') or (provider == 'pip' and ensure != 'absent') |>
