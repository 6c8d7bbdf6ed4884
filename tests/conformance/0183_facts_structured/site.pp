notify { 'mrtest-facts-os':
  message => "${facts['os']['family']} ${facts['os']['release']['major']} ${facts['os']['distro']['codename']}",
}
