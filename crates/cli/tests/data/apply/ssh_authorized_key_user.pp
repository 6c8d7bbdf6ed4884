# A key in the user's own authorized_keys, the default target: Puppet
# creates ~/.ssh (0700) and the file (0600) as the user.
ssh_authorized_key { 'mrtest@example.com':
  user    => 'mrtest-sshkey',
  type    => 'ssh-ed25519',
  key     => 'AAAAC3NzaC1lZDI1NTE5AAAAmrtest',
  options => ['cert-authority', 'principals="a,b"'],
}
ssh_authorized_key { 'nobody@example.com':
  user   => 'mrtest-nosuchuser',
  type   => 'ssh-rsa',
  key    => 'AAAAB3NzaC1yc2EAAAAnobody',
  target => '/tmp/mrtest-apply/nobody_keys',
}
