define mrtest_req (String $target) {
  notify { $title: message => $target }
}
mrtest_req { 'mrtest-req': }
