# Client side: global ssh_config defaults and options with a Host section,
# a client Match block, and a per-user ~/.ssh/config. Debian ships saz-ssh
# without its hiera.yaml, so the data-provided defaults are given here.
user { 'mrtest-bob':
  ensure     => present,
  home       => '/home/mrtest-bob',
  managehome => true,
}
class { 'ssh::client':
  ssh_config           => '/etc/ssh/ssh_config',
  client_package_name  => 'openssh-client',
  storeconfigs_enabled => false,
  default_options      => {
    'Host *' => {
      'SendEnv'        => 'LANG LC_*',
      'HashKnownHosts' => 'yes',
    },
  },
  options              => {
    'Host *.example.com'  => {
      'User'                  => 'mrtest-deploy',
      'ForwardAgent'          => 'no',
      'StrictHostKeyChecking' => 'yes',
    },
    'ServerAliveInterval' => 60,
  },
  match_block          => {
    'bastion.example.com' => {
      'type'    => 'host',
      'options' => {
        'ProxyJump' => 'none',
      },
    },
  },
}
ssh::client::config::user { 'mrtest-bob':
  user_home_dir => '/home/mrtest-bob',
  options       => {
    'Host *.example.org' => {
      'User' => 'bob',
    },
  },
  require       => User['mrtest-bob'],
}
