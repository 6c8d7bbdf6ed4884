# Server config built from pieces: ssh::server::match_block sections for a
# group and an address, and single directives added with
# ssh::server::config::setting.
class { 'ssh::server':
  service_name         => 'ssh',
  server_package_name  => 'openssh-server',
  storeconfigs_enabled => false,
  options              => {
    'PermitRootLogin' => 'no',
  },
}
ssh::server::match_block { 'mrtest-sftp':
  type    => 'Group',
  options => {
    'ChrootDirectory'    => '/srv/mrtest-sftp/%u',
    'ForceCommand'       => 'internal-sftp',
    'AllowTcpForwarding' => 'no',
    'X11Forwarding'      => 'no',
  },
}
ssh::server::match_block { '192.0.2.0/24':
  type    => 'Address',
  order   => 60,
  options => {
    'PasswordAuthentication' => 'yes',
  },
}
ssh::server::config::setting { 'mrtest-banner':
  key   => 'Banner',
  value => '/etc/issue.net',
}
ssh::server::config::setting { 'mrtest-ciphers':
  key   => 'Ciphers',
  value => ['chacha20-poly1305@openssh.com', 'aes256-gcm@openssh.com'],
  order => '20',
}
