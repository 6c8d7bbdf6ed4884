# Quagga's zebra and bgpd announcing a prefix to two upstream peers, one
# of them over a password-protected session. Puppet rejects it: the quagga
# class (which quagga::bgpd includes too) types a parameter as
# Stdlib::Ip_address, a type Debian's stdlib does not define (it has
# Stdlib::IP::Address), so no use of the module compiles.
class { 'quagga': }
class { 'quagga::bgpd':
  my_asn    => 64496,
  router_id => '192.0.2.1',
  networks4 => ['192.0.2.0/24'],
  peers     => {
    '64497' => {
      'addr4' => ['192.0.2.2'],
      'desc'  => 'mrtest upstream A',
    },
    '64498' => {
      'addr4'    => ['198.51.100.2'],
      'desc'     => 'mrtest upstream B',
      'password' => 'mrtest-bgp-secret',
    },
  },
}
