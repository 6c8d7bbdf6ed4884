class profile::hardening {
  File <| tag == 'mrtest_sensitive' |> {
    mode  => '0600',
    owner => 'root',
  }
}
