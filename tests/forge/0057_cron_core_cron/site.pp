# Cron jobs, one with special timing.
cron { 'logrotate':
  command => '/usr/sbin/logrotate',
  user    => 'root',
  hour    => 2,
  minute  => 0,
}
cron { 'backup':
  command     => '/usr/local/bin/backup',
  user        => 'backup',
  special     => 'daily',
  environment => ['MAILTO=admin@example.com', 'PATH=/bin:/usr/bin'],
}
