define mrtest_lazy () {
  notify { "mrtest-lazy-${title}": message => "value is ${::mrtest_later}" }
}
mrtest_lazy { 'x': }
$mrtest_later = 'set after the declaration'
