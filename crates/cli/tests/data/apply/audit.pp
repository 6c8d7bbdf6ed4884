# audit: the values of audited properties are recorded each run; a value
# changed since (here by audit.change.sh, between the second and the third
# run) is reported, triggers the subscriber's refresh, and is named when
# the run itself changes the property back.
file { '/tmp/mrtest-apply/watched':
  audit  => [content, mode],
  notify => Exec['mrtest-reload'],
}
file { '/tmp/mrtest-apply/managed':
  mode  => '0644',
  audit => [ensure, mode],
}
file { '/tmp/mrtest-apply/missing':
  audit => ensure,
}
exec { 'mrtest-reload':
  command     => '/bin/echo reloaded',
  refreshonly => true,
  logoutput   => true,
}
