# The baseline of every globex node: chrony, the firewall, systemd's
# journal, a few packages, and a description of the node for monitoring.
class profile::base (
  Array[String[1]]              $packages,
  Enum['production', 'staging'] $tier = lookup('globex::tier'),
  String[1]                     $team = lookup('globex::team'),
) {
  include chrony
  include systemd
  include profile::firewall

  ensure_packages($packages)

  $site = $trusted['domain'].split('\.')[0]
  file { '/etc/mrtest-globex':
    ensure => directory,
    owner  => 'root',
    group  => 'root',
    mode   => '0755',
  }
  file { '/etc/mrtest-globex/node.json':
    ensure  => file,
    owner   => 'root',
    group   => 'root',
    mode    => '0644',
    content => to_json_pretty({
      'certname' => $trusted['certname'],
      'site'     => $site,
      'tier'     => $tier,
      'team'     => $team,
    }),
  }
}
