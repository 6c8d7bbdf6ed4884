# sudo with the module's default sudoers and purged sudoers.d, and drop-in
# files (sudo::conf) given as a string, as lines and at a priority.
class { 'sudo': }
sudo::conf { 'mrtest-admins':
  priority => 10,
  content  => '%mrtest-admins ALL=(ALL) NOPASSWD: ALL',
}
sudo::conf { 'mrtest-deploy':
  priority => 20,
  content  => [
    'Cmnd_Alias MRTEST_RESTART = /bin/systemctl restart mrtest-app',
    'mrtest-deploy ALL=(root) NOPASSWD: MRTEST_RESTART',
  ],
}
sudo::conf { 'mrtest-old':
  ensure => absent,
}
