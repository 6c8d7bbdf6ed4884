# Node.js from Debian's own packages (no repository managed), with npm and
# the development headers, and an npmrc setting.
class { 'nodejs':
  manage_package_repo       => false,
  nodejs_dev_package_ensure => 'present',
  npm_package_ensure        => 'present',
  npmrc_config              => { 'fund' => 'false', 'audit' => 'false' },
}
