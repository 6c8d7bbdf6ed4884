# A module alias and module options: the bonding driver under another name,
# and options for kvm_intel and loop.
kmod::alias { 'bond0':
  source => 'bonding',
}
kmod::option { 'kvm_intel nested':
  module => 'kvm_intel',
  option => 'nested',
  value  => '1',
}
kmod::option { 'loop':
  option => 'max_loop',
  value  => '64',
  file   => '/etc/modprobe.d/mrtest-loop.conf',
}
