# What the server test's agents are given: a file naming the agent by its
# certificate (and the role its certificate carries, if any) and the facts
# pluginsync brought, a file from a module, a note by a type pluginsync
# brought, and resources of Ruby types (Debian's concat, stdlib and
# archive, on the server's base module path, and the DSL test module), which
# an agent has only as pluginsynced Ruby.
node default {
  $dir = $facts['mrtest_srv_dir']
  # The classic site.pp's remote filebucket, for the agent that names the
  # server's port.
  if $facts['mrtest_bucket_port'] {
    filebucket { 'main':
      server => 'localhost',
      port   => Integer($facts['mrtest_bucket_port']),
      path   => false,
    }
    File { backup => 'main' }
  }
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
  concat { "${dir}/motd": mode => '0640' }
  concat::fragment { 'motd-second': target => "${dir}/motd", content => "second\n", order => '20' }
  concat::fragment { 'motd-first': target => "${dir}/motd", content => "first\n", order => '10' }
  # Module files read through Puppet's file serving by other types than
  # file: a fragment's source, archive's download.
  concat::fragment { 'motd-served': target => "${dir}/motd", source => 'puppet:///modules/mrtest_srv/greeting.txt', order => '30' }
  archive { "${dir}/greeting.archived": source => 'puppet:///modules/mrtest_srv/greeting.txt' }
  file { "${dir}/lines.txt": ensure => file, replace => false, content => "a=1\n" }
  file_line { 'mrtest-line': path => "${dir}/lines.txt", line => 'b=2', require => File["${dir}/lines.txt"] }
  file_line { 'mrtest-match': path => "${dir}/lines.txt", line => 'a=3', match => '^a=' }
  # The type and provider DSL module of tests/ruby/dsl (linked here):
  # ensure's extra value and alias, munged values, array matching, a
  # feature's attribute.
  mrtest_widget { "${dir}/one.widget":
    color  => mauve,
    labels => ['B', 'a'],
    size   => '3',
    shade  => 'dark',
    brush  => 'round',
  }
  mrtest_widget { "${dir}/two.widget": ensure => off }
}
