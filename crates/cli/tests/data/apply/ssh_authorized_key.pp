# Authorized keys in files named by `target`, owned by root: a new key with
# options, a key whose key and options change, one already in sync, one
# removed, and one in a file whose directory does not exist yet.
$keys = '/tmp/mrtest-apply/ssh/authorized_keys'
ssh_authorized_key { 'new@example.com':
  user    => 'root',
  type    => 'rsa',
  key     => 'AAAAB3NzaC1yc2EAAAAnew',
  target  => $keys,
  options => ['no-pty', 'from="10.0.0.1,10.0.0.2"'],
}
ssh_authorized_key { 'change@example.com':
  user    => 'root',
  type    => 'ed25519',
  key     => 'AAAAC3NzaC1lZDI1NTE5AAAAchanged',
  target  => $keys,
  options => 'command="/bin/echo a,b"',
}
ssh_authorized_key { 'kept@example.com':
  user   => 'root',
  type   => 'ssh-rsa',
  key    => 'AAAAB3NzaC1yc2EAAAAkept',
  target => $keys,
}
ssh_authorized_key { 'gone@example.com':
  ensure => absent,
  user   => 'root',
  target => $keys,
}
ssh_authorized_key { 'fresh':
  user   => 'root',
  type   => 'ecdsa-sha2-nistp256',
  key    => 'AAAAE2VjZHNhfresh',
  target => '/tmp/mrtest-apply/ssh2/authorized_keys',
}
