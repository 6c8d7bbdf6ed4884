# The SSH server with options.
class { 'ssh::server':
  storeconfigs_enabled => false,
  options              => {
    'PasswordAuthentication' => 'no',
    'PermitRootLogin'        => 'no',
    'Port'                   => [22, 2222],
    'Match User www-data'    => {
      'ChrootDirectory' => '%h',
      'ForceCommand'    => 'internal-sftp',
      'X11Forwarding'   => 'no',
    },
  },
}
