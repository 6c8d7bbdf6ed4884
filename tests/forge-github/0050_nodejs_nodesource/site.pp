# Node.js from NodeSource's repository (nodejs) at a chosen major version,
# and global npm packages (nodejs::npm).
class { 'nodejs':
  repo_version => '20',
}
nodejs::npm { 'pm2':
  ensure  => 'present',
  package => 'pm2',
  target  => '/opt/mrtest-app',
}
package { 'yarn':
  ensure   => present,
  provider => 'npm',
  require  => Class['nodejs'],
}
