# Kernel modules loaded at boot, blacklisted, and given options.
kmod::load { 'mptsas': }
kmod::blacklist { 'pcspkr': }
kmod::option { 'bond0 mode':
  module => 'bond0',
  option => 'mode',
  value  => '1',
}
kmod::alias { 'bond0':
  source => 'bonding',
}
