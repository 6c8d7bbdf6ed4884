schedule { 'mrtest-nightly': range => '2 - 4', period => daily, repeat => 1 }
notify { 'mrtest-allmeta':
  message   => 'x',
  noop      => true,
  loglevel  => 'warning',
  schedule  => 'mrtest-nightly',
  audit     => ['message'],
  tag       => 'mrtest_all',
  alias     => 'mrtest-allmeta-alias',
}
