# The README's main command applies this manifest: everything it manages
# lives under /tmp/marionette-demo, so it is safe to run anywhere. Run it
# twice: the second run has nothing to do.
class demo::config (String $greeting = 'Managed by Marionette') {
  file { '/tmp/marionette-demo':
    ensure => directory,
    mode   => '0755',
  }
  file { '/tmp/marionette-demo/motd':
    ensure  => file,
    mode    => '0644',
    content => "${greeting}\n",
  }
  file { '/tmp/marionette-demo/current':
    ensure => link,
    target => '/tmp/marionette-demo/motd',
  }
}

class demo::service {
  # Runs only when the configuration changed.
  exec { 'demo-reload':
    command     => '/bin/sh -c "date > /tmp/marionette-demo/reloaded"',
    refreshonly => true,
  }
}

include demo::config
include demo::service
Class['demo::config'] ~> Class['demo::service']

# Says where the demo is, once: a file, not a `notify`, which would
# report a change at every run.
file { '/tmp/marionette-demo/README':
  ensure  => file,
  content => "The demo is in /tmp/marionette-demo\n",
}
