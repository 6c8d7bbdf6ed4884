# What the server test's agent is given: a file naming it by its
# certificate and the facts pluginsync brought, and a file from a module.
node default {
  $dir = $facts['mrtest_srv_dir']
  file { "${dir}/hello.txt":
    content => "hello ${trusted['certname']} ${facts['mrtest_srv_fact']} ${facts['mrtest_external']}\n",
  }
  file { "${dir}/out.txt":
    source => 'puppet:///modules/mrtest_srv/greeting.txt',
  }
}
