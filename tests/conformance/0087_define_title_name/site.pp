define mrtest_vhost (String $docroot = "/tmp/mrtest-www/${title}") {
  notify { "mrtest-vhost-${title}":
    message => "title=${title} name=${name} docroot=${docroot}",
  }
}
mrtest_vhost { 'site1.example.com': }
mrtest_vhost { 'site2': docroot => '/tmp/mrtest-other' }
