# Preseeded debconf answers (stm's debconf type) for a package installed
# afterwards, and a seen flag.
debconf { 'tzdata/Areas':
  type  => 'select',
  value => 'Europe',
}
debconf { 'tzdata/Zones/Europe':
  type  => 'select',
  value => 'Berlin',
  seen  => true,
}
debconf { 'mrtest-postfix-mailname':
  package => 'postfix',
  item    => 'postfix/mailname',
  type    => 'string',
  value   => 'mrtest.example.com',
  before  => Package['postfix'],
}
package { 'postfix':
  ensure => installed,
}
