define mrtest_named (String $path = $name) {
  notify { "mrtest-named-${title}": message => $path }
}
mrtest_named { 'by-title': }
