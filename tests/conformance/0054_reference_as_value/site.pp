file { '/tmp/mrtest-ref-target': ensure => file }
$ref = File['/tmp/mrtest-ref-target']
notify { 'mrtest-ref':
  message => "points at ${ref}",
  require => $ref,
}
notify { 'mrtest-ref-list':
  before => [$ref, Notify['mrtest-ref']],
}
