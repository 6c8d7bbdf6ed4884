# sshd_config with an Include directory of drop-in files (include_dir and
# config_files, new in saz-ssh 13), every file checked with sshd -t, and an
# option kept out of the main file.
# Debian ships saz-ssh without its hiera.yaml: the Debian names are given.
class { 'ssh::server':
  service_name         => 'ssh',
  server_package_name  => 'openssh-server',
  storeconfigs_enabled => false,
  validate_sshd_file   => true,
  include_dir          => '/etc/ssh/sshd_config.d',
  include_dir_purge    => true,
  options              => {
    'PermitRootLogin'              => 'no',
    'KbdInteractiveAuthentication' => 'no',
    'AllowGroups'                  => ['mrtest-ssh', 'adm'],
  },
  options_absent       => ['UseDNS'],
  config_files         => {
    '50-mrtest-crypto' => {
      'options' => {
        'KexAlgorithms' => 'curve25519-sha256,curve25519-sha256@libssh.org',
        'Ciphers'       => 'chacha20-poly1305@openssh.com,aes256-gcm@openssh.com',
      },
    },
    '60-mrtest-auth'   => {
      'mode'    => '0644',
      'options' => {
        'PasswordAuthentication' => 'no',
        'MaxAuthTries'           => 3,
      },
    },
  },
}
