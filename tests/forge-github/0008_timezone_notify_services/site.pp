# The time zone set to UTC, restarting a service when it changes.
service { 'cron':
  ensure => running,
}
class { 'timezone':
  timezone        => 'UTC',
  notify_services => ['cron'],
}
