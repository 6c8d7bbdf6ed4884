# Schedules: the implicit ones (daily, hourly) and declared ones. A
# resource outside its schedule is skipped quietly, its refreshes dropped,
# and what requires it still runs; the second run, minutes later, finds the
# daily and hourly resources checked already. A class's schedule is not
# passed on to the resources in it.
schedule { 'mrtest-always': range => '0:00:00 - 23:59:59' }
schedule { 'mrtest-blackout': period => never }
schedule { 'mrtest-everyday':
  weekday     => [0, 'Mon', 'tuesday', 3, '4', 'Fri', 'Sat'],
  period      => daily,
  periodmatch => number,
}
exec { 'mrtest-daily':
  command  => '/bin/sh -c "echo run >> /tmp/mrtest-apply/daily"',
  schedule => daily,
}
exec { 'mrtest-never':
  command  => '/bin/sh -c "echo run >> /tmp/mrtest-apply/never"',
  schedule => 'mrtest-blackout',
}
exec { 'mrtest-always':
  command  => '/bin/sh -c "echo run > /tmp/mrtest-apply/always"',
  schedule => 'mrtest-always',
}
exec { 'mrtest-everyday':
  command  => '/bin/sh -c "echo run >> /tmp/mrtest-apply/everyday"',
  schedule => 'mrtest-everyday',
}
exec { 'mrtest-refreshed':
  command     => '/bin/sh -c "echo run >> /tmp/mrtest-apply/refreshed"',
  refreshonly => true,
  subscribe   => Exec['mrtest-daily'],
  schedule    => 'mrtest-blackout',
}
exec { 'mrtest-after-never':
  command => '/bin/sh -c "echo run >> /tmp/mrtest-apply/after"',
  creates => '/tmp/mrtest-apply/after',
  require => Exec['mrtest-never'],
}
file { '/tmp/mrtest-apply/hourly':
  content  => "x\n",
  schedule => hourly,
}
class mrtest_blackout {
  exec { 'mrtest-in-class':
    command => '/bin/sh -c "echo run > /tmp/mrtest-apply/class"',
  }
}
class { 'mrtest_blackout': schedule => 'mrtest-blackout' }
