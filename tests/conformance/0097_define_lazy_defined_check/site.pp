define mrtest_checker () {
  if defined(Notify['mrtest-declared-after']) {
    notify { "mrtest-checker-${title}": message => 'saw it' }
  } else {
    notify { "mrtest-checker-${title}": message => 'did not see it' }
  }
}
mrtest_checker { 'c': }
notify { 'mrtest-declared-after': }
