class profile::stack {
  package { ['mrtest-php', 'mrtest-fpm']: ensure => installed }
  service { ['mrtest-fpm', 'mrtest-web']: ensure => running }
  Package <| tag == 'profile::stack' |> -> Service <| tag == 'profile::stack' |>
}
include profile::stack
