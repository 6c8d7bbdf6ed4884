class mrtestaccounts::admins {
  Mrtestaccounts::Person <| tag == 'mrtest_team_ops' |>
}
