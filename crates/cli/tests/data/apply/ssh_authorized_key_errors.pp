# A key with white space in it: Puppet refuses the catalog.
ssh_authorized_key { 'spaced@example.com':
  user => 'root',
  type => 'ssh-rsa',
  key  => 'AAAA B3Nza',
}
