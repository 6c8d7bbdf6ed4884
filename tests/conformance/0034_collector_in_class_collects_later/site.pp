class mrtest_collect {
  Notify <| tag == 'mrtest_late' |>
}
include mrtest_collect
@notify { 'mrtest-declared-later': tag => 'mrtest_late' }
