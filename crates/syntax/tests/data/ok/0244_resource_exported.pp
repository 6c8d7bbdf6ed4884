@@sshkey { 'host':
  key  => 'abc',
  type => 'ssh-rsa',
}
