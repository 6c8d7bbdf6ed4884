class mrtestbroken {
  $list = [1, 2]
  notify { 'mrtest-broken': message => 10 / ($list[1] - 2) }
}
