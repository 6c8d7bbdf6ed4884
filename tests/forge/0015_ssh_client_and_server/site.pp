# The ssh class managing client and server.
class { 'ssh':
  storeconfigs_enabled => false,
  server_options       => { 'X11Forwarding' => 'no' },
  client_options       => { 'Host *.example.com' => { 'ForwardAgent' => 'yes' } },
}
