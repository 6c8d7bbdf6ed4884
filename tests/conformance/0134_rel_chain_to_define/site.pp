define mrtest_unit () {
  notify { "mrtest-unit-${title}": }
}
mrtest_unit { 'a': }
mrtest_unit { 'b': }
Mrtest_unit['a'] -> Mrtest_unit['b']
