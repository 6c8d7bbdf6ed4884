# What the server test's agents are given: a file naming the agent by its
# certificate (and the role its certificate carries, if any) and the facts
# pluginsync brought, a file from a module, and a note by a type pluginsync
# brought.
node default {
  $dir = $facts['mrtest_srv_dir']
  $role = $trusted['extensions']['pp_role']
  $suffix = $role ? { undef => '', default => " ${role}" }
  file { "${dir}/hello.txt":
    content => "hello ${trusted['certname']} ${facts['mrtest_srv_fact']} ${facts['mrtest_external']}${suffix}\n",
  }
  file { "${dir}/out.txt":
    source => 'puppet:///modules/mrtest_srv/greeting.txt',
  }
  mrtest_srv_note { "${dir}/note.txt":
    text => 'a synced type',
  }
}
