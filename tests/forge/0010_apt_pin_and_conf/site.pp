# Pinning a release and an apt.conf setting.
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
