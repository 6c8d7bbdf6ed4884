# SSH key pairs generated for a service user and for root.
user { 'mrtest-deploy':
  ensure     => present,
  managehome => true,
  home       => '/home/mrtest-deploy',
}
ssh_keygen { 'mrtest-deploy':
  comment => 'mrtest-deploy@mrtest.example.com',
  bits    => 4096,
  require => User['mrtest-deploy'],
}
ssh_keygen { 'root':
  filename => '/root/.ssh/id_rsa_mrtest',
}
