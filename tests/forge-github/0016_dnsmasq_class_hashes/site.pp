# dnsmasq's class hashes: configuration files, exported host entries and
# DHCP reservations, with the service left alone.
class { 'dnsmasq':
  service_control  => false,
  purge_config_dir => true,
  configs_hash     => {
    'mrtest-cache' => { 'content' => "cache-size=1000\n" },
  },
  hosts_hash       => {
    'mrtest-nas' => { 'ip' => '192.168.50.10', 'hostname' => 'nas.lan.example.com', 'aliases' => 'nas' },
  },
  dhcp_hosts_hash  => {
    'mrtest-printer' => { 'mac' => '52:54:00:12:34:56', 'ip' => '192.168.50.20', 'hostname' => 'printer' },
  },
}
