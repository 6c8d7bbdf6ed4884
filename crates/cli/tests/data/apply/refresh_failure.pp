# A refresh that fails fails its resource, as Puppet's event manager
# does: what requires it is skipped, what does not goes on.
file { '/tmp/mrtest-apply/trigger':
  content => "changed\n",
}
exec { 'mrtest refresh fails':
  command     => '/bin/false',
  refreshonly => true,
  subscribe   => File['/tmp/mrtest-apply/trigger'],
}
notify { 'mrtest after the failed refresh':
  require => Exec['mrtest refresh fails'],
}
notify { 'mrtest after the skipped notify':
  require => Notify['mrtest after the failed refresh'],
}
file { '/tmp/mrtest-apply/independent':
  content => "independent\n",
}
