# The system time zone (timezone), with the hardware clock in UTC.
class { 'timezone':
  timezone => 'Europe/Berlin',
  hwutc    => true,
}
