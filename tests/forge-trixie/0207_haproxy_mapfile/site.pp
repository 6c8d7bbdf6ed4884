# Host-to-backend routing through a map file: mappings given as hashes and
# strings, more entries added by haproxy::mapfile::entry, and a frontend
# choosing the backend from the map.
include haproxy
haproxy::mapfile { 'mrtest-domains-to-backends':
  ensure   => 'present',
  mappings => [
    { 'app1.example.com' => 'mrtest-bk-app1' },
    { 'app2.example.com' => 'mrtest-bk-app2' },
    'app3.example.com mrtest-bk-app2',
  ],
}
haproxy::mapfile::entry { 'app4.example.com mrtest-bk-app1':
  mapfile => 'mrtest-domains-to-backends',
}
haproxy::mapfile::entry { 'mrtest more domains':
  mapfile  => 'mrtest-domains-to-backends',
  mappings => [{ 'app5.example.com' => 'mrtest-bk-app1' }],
  order    => '20',
}
haproxy::frontend { 'mrtest-ft-allapps':
  collect_exported => false,
  ipaddress        => '0.0.0.0',
  ports            => '80',
  mode             => 'http',
  options          => {
    'use_backend' => '%[req.hdr(host),lower,map(/etc/haproxy/mrtest-domains-to-backends.map,mrtest-bk-default)]',
  },
}
