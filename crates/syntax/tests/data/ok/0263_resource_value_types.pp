file { '/tmp/a':
  ensure  => file,
  content => "x\n",
  mode    => 0644,
  backup  => false,
  source  => undef,
  notify  => [Service['a'], Service['b']],
}
