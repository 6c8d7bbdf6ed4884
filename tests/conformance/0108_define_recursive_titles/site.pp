define mrtest_countdown (Integer $n) {
  notify { "mrtest-count-${n}": }
  if $n > 1 {
    mrtest_countdown { "step-${n}": n => $n - 1 }
  }
}
mrtest_countdown { 'start': n => 3 }
