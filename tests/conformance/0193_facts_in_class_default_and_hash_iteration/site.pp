class mrtest_ifaces (Hash $ifaces = $facts['networking']['interfaces']) {
  $ifaces.each |$name, $info| {
    notify { "mrtest-iface-${name}": message => "${name} ${info['ip']}" }
  }
}
include mrtest_ifaces
