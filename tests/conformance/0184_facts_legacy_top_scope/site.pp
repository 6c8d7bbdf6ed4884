notify { 'mrtest-legacy':
  message => "${osfamily} ${operatingsystem} ${::fqdn} ${::ipaddress} ${processorcount}",
}
