# Apache with the module's defaults.
class { 'apache': }
