class profile::build {
  Package <| tag == 'mrtest_build' |>
}
