$nothing = undef
file { '/tmp/mrtest-undef-params':
  ensure  => file,
  mode    => undef,
  owner   => $nothing,
  content => '',
}
notify { 'mrtest-undef-message': message => undef }
