# A recursive, purging directory is listed when the run reaches it, as
# Puppet's eval_generate lists it: an entry an earlier resource of the run
# made there (here an exec, as a package would) is purged by this run,
# beside one there from the start; a managed entry stays.
file { '/tmp/mrtest-apply/marker':
  content => "first\n",
}
exec { 'mrtest make a stray entry':
  command     => "/bin/sh -c 'mkdir -p /tmp/mrtest-apply/purged && touch /tmp/mrtest-apply/purged/late'",
  refreshonly => true,
  subscribe   => File['/tmp/mrtest-apply/marker'],
}
file { '/tmp/mrtest-apply/purged':
  ensure  => directory,
  recurse => true,
  purge   => true,
  require => Exec['mrtest make a stray entry'],
}
file { '/tmp/mrtest-apply/purged/kept':
  content => "kept\n",
}
