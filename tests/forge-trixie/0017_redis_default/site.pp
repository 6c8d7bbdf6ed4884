# Redis with the module's defaults. redis 11 manages the service's open-files
# limit with systemd::manage_dropin, which the systemd module Debian 13 ships
# (2.12) lacks: ulimit_managed => false leaves the limit alone.
class { 'redis':
  ulimit_managed => false,
}
