$y = $facts['os'] ? {
  'Debian' => 'apt',
  /RedHat|CentOS/ => 'yum',
  default => undef,
}
notice($y)
