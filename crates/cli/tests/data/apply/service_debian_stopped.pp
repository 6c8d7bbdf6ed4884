# The init script's daemon runs and starts at boot: the debian provider
# stops it through the script and disables it.
service { 'mrtest-svc-deb-stopped':
  ensure   => stopped,
  enable   => false,
  provider => debian,
}
