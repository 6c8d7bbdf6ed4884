# Kept as Puppet's error: dnsmasq::host declares `String $hostname = undef`,
# so a host given without a hostname fails its own parameter's type.
include dnsmasq
dnsmasq::host { 'mrtest-nas':
  ip      => '192.168.50.10',
  aliases => 'nas',
}
