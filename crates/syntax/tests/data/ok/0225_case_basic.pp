case $facts['os'] {
  'Debian': { notice('deb') }
  default: { notice('other') }
}
