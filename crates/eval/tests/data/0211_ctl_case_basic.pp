$os = 'Debian'
case $os {
  'RedHat', 'CentOS': { notice('rh') }
  'debian': { notice('deb (case-insensitive)') }
  default: { notice('other') }
}
