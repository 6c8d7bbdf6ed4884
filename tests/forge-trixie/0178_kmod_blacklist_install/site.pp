# Modules kept from loading: blacklisted in the default file and in a file
# of their own, and one whose loading is replaced by /bin/true.
kmod::blacklist { 'pcspkr': }
kmod::blacklist { 'nouveau':
  file => '/etc/modprobe.d/mrtest-blacklist-nouveau.conf',
}
kmod::install { 'usb-storage':
  command => '/bin/true',
}
