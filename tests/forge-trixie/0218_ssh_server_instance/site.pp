# A second sshd instance with its own config file and systemd unit
# (ssh::server::instances), listening on another port for a backup user.
class { 'ssh::server':
  service_name         => 'ssh',
  server_package_name  => 'openssh-server',
  storeconfigs_enabled => false,
}
ssh::server::instances { 'mrtest-backup-sshd':
  ensure  => present,
  options => {
    'sshd_config'  => {
      'Port'                   => 2022,
      'ListenAddress'          => '192.0.2.2',
      'PermitRootLogin'        => 'no',
      'PasswordAuthentication' => 'no',
      'AllowUsers'             => 'mrtest-backup',
      'PidFile'                => '/run/mrtest-backup-sshd.pid',
    },
    'match_blocks' => {
      'mrtest-backup' => {
        'type'    => 'user',
        'options' => {
          'ForceCommand' => '/usr/local/bin/mrtest-backup-receive',
        },
      },
    },
  },
}
