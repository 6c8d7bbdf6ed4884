file { '/tmp/mrtest-epp.conf':
  ensure  => file,
  content => epp('mrtesttpl/app.conf.epp', { 'port' => 8081, 'hosts' => ['a', 'b'] }),
}
