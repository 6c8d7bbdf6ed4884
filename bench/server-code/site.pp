# The node the server benchmark's agents ask for: Forge cases 0010 (apt),
# 0012 (ntp) and 0005 (concat) of tests/forge, with Debian's modules.
node default {
  include apt
  apt::pin { 'bookworm-backports':
    priority => 500,
    release  => 'bookworm-backports',
  }
  apt::conf { 'unauth':
    priority => 99,
    content  => 'APT::Get::AllowUnauthenticated 1;',
  }
  apt::source { 'debian_backports':
    location => 'http://deb.debian.org/debian',
    release  => 'bookworm-backports',
    repos    => 'main contrib non-free',
    pin      => 500,
  }
  class { 'ntp':
    servers => ['0.pool.ntp.org', '1.pool.ntp.org', '2.pool.ntp.org'],
  }
  concat { '/etc/motd':
    owner => 'root',
    group => 'root',
    mode  => '0644',
  }
  concat::fragment { 'motd_header':
    target  => '/etc/motd',
    content => "Welcome to ${facts['networking']['fqdn']}\n",
    order   => '01',
  }
  concat::fragment { 'motd_local':
    target  => '/etc/motd',
    content => "Managed by configuration management\n",
    order   => '15',
  }
}
