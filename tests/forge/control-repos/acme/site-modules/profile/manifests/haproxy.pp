# HAProxy: the frontends as given, and the backends with their members, each
# member a hash with its name and address (for the web backend, the list of
# web servers that data/common.yaml keeps once).
class profile::haproxy (
  Hash[String[1], Hash] $frontends = {},
  Hash[String[1], Struct[{
    Optional[mode]           => Enum['http', 'tcp'],
    Optional[options]        => Hash,
    members                  => Array[Struct[{ name => String[1], address => Stdlib::IP::Address }]],
    member_port              => Variant[String[1], Integer],
    Optional[member_options] => Variant[String, Array[String]],
  }]] $backends = {},
) {
  include haproxy

  $frontends.each |String $name, Hash $params| {
    haproxy::frontend { $name:
      collect_exported => false,
      *                => $params,
    }
  }

  $backends.each |String $name, Hash $backend| {
    haproxy::backend { $name:
      collect_exported => false,
      mode             => $backend['mode'],
      options          => $backend.get('options', {}),
    }
    $backend['members'].each |Hash $member| {
      haproxy::balancermember { "${name}-${member['name']}":
        listening_service => $name,
        server_names      => $member['name'],
        ipaddresses       => $member['address'],
        ports             => String($backend['member_port']),
        options           => $backend.get('member_options', ''),
      }
    }
  }

  concat::fragment { 'motd-haproxy':
    target  => '/etc/motd',
    content => "HAProxy frontends: ${frontends.keys.sort.join(', ')}\n",
    order   => '20',
  }
}
