file { '/tmp/x':
  content => @(EOT),
    hello
    | EOT
  mode    => '0644',
}
