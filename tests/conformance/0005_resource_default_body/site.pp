$common = { 'owner' => 'root', 'mode' => '0644' }
file {
  default:
    ensure => file,
    *      => $common;
  '/tmp/mrtest-d1':
    ;
  '/tmp/mrtest-d2':
    mode => '0600';
  '/tmp/mrtest-d3':
    ensure => directory,
    mode   => '0755';
}
