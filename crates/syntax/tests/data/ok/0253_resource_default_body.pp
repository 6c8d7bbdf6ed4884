file {
  default:
    ensure => file,
    mode   => '0644';
  '/tmp/a': ;
  '/tmp/b': mode => '0600';
}
