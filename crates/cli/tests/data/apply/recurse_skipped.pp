# A recursive directory skipped for failed dependencies: Puppet makes a
# resource of each entry all the same, those it would leave alone (nothing
# to purge, no owner or mode to give) included, and names each skipped, in
# path order with the entries it would change; a managed entry is the
# catalog's own.
exec { 'mrtest fails':
  command => '/bin/false',
}
file { '/tmp/mrtest-apply/tree':
  ensure  => directory,
  recurse => true,
  require => Exec['mrtest fails'],
}
file { '/tmp/mrtest-apply/tree/managed':
  content => "managed\n",
}
file { '/tmp/mrtest-apply/purged':
  ensure  => directory,
  recurse => true,
  purge   => true,
  mode    => '0750',
  require => Exec['mrtest fails'],
}
