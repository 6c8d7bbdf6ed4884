@service { 'mrtest-svc-a': ensure => running }
@service { 'mrtest-svc-b': ensure => running }
Service <| title == 'mrtest-svc-a' |> {
  enable => true,
}
