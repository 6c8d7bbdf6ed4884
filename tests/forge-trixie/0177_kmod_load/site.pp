# Kernel modules loaded now and at every boot (/etc/modules), and one
# unloaded and removed from that list.
kmod::load { 'br_netfilter': }
kmod::load { 'overlay': }
kmod::load { 'floppy':
  ensure => absent,
}
