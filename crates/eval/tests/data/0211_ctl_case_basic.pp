$osname = 'Debian'
case $osname {
  'RedHat', 'CentOS': { notice('rh') }
  'debian': { notice('deb (case-insensitive)') }
  default: { notice('other') }
}
