# A small site manifest used by the README's main command.
class motd (String $message = 'Managed by Marionette') {
  file { '/etc/motd':
    ensure  => file,
    mode    => '0644',
    content => "${message}\n",
  }
}

node default {
  include motd
  $packages = ['curl', 'git']
  package { $packages: ensure => installed }
  Package['curl'] -> Class['motd']
}
