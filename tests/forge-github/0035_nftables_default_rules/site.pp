# nftables (voxpupuli) with its default inet filter: SSH and ICMP in, the
# usual outgoing services, and the HTTP(S) rule classes.
class { 'nftables':
  in_ssh    => true,
  in_icmp   => true,
  out_http  => true,
  out_https => true,
  out_dns   => true,
}
include nftables::rules::http
include nftables::rules::https
