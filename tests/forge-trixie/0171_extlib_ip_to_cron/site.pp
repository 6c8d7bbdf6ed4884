# Spreading cron jobs across hosts by their IP address (extlib::ip_to_cron):
# a job every 30 minutes and a job every 8 hours.
$half_hourly = extlib::ip_to_cron(1800)
$eight_hours = extlib::ip_to_cron(28800)

cron { 'mrtest-sync':
  command => '/usr/local/bin/mrtest-sync',
  user    => 'root',
  hour    => $half_hourly[0],
  minute  => $half_hourly[1],
}
cron { 'mrtest-report':
  command => '/usr/local/bin/mrtest-report',
  user    => 'root',
  hour    => $eight_hours[0],
  minute  => $eight_hours[1],
}
