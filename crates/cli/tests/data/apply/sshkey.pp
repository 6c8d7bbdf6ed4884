# Host keys in a known_hosts file: new ones (one named `host@type`), one
# whose key and aliases change, one in sync, one removed, and one in a file
# that does not exist yet.
$known = '/tmp/mrtest-apply/ssh/known_hosts'
sshkey { 'new.example.com':
  type         => 'rsa',
  key          => 'AAAAB3NzaC1yc2EAAAAnew',
  host_aliases => ['new', '10.0.0.2'],
  target       => $known,
}
sshkey { 'change.example.com@ssh-ed25519':
  key          => 'AAAAC3NzaC1lZDI1NTE5AAAAchanged',
  host_aliases => 'change',
  target       => $known,
}
sshkey { 'kept.example.com':
  type         => 'ed25519',
  key          => 'AAAAC3NzaC1lZDI1NTE5AAAAkept',
  host_aliases => ['kept', '10.0.0.1'],
  target       => $known,
}
sshkey { 'gone.example.com':
  ensure => absent,
  type   => 'ssh-rsa',
  target => $known,
}
sshkey { 'fresh.example.com':
  type   => 'ecdsa-sha2-nistp256',
  key    => 'AAAAE2VjZHNhfresh',
  target => '/tmp/mrtest-apply/ssh/fresh_known_hosts',
}
