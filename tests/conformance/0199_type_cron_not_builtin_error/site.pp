cron { 'mrtest-cron':
  command  => '/bin/true',
  user     => 'root',
  hour     => '*/2',
  minute   => 0,
  weekday  => ['1', '3', '5'],
  environment => 'MAILTO=""',
  target   => 'root',
}
