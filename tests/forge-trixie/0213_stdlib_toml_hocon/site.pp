# Configuration files in several formats from one hash: TOML with
# stdlib::to_toml, YAML, Python and Ruby literals, and values read back
# from a HOCON string with stdlib::parsehocon.
$settings = {
  'title'    => 'mrtest',
  'server'   => {
    'host' => '127.0.0.1',
    'port' => 8080,
    'tls'  => false,
  },
  'backends' => {
    'primary' => { 'url' => 'http://192.0.2.61', 'weight' => 3 },
  },
}
$hocon = stdlib::parsehocon('limits { cpu = 2, memory = "512M" }, name = mrtest-svc')

file { '/etc/mrtest-svc.toml':
  ensure  => file,
  content => stdlib::to_toml($settings),
}
file { '/etc/mrtest-svc.yaml':
  ensure  => file,
  content => stdlib::to_yaml($settings),
}
file { '/etc/mrtest-svc.py':
  ensure  => file,
  content => "SETTINGS = ${stdlib::to_python($settings)}\n",
}
file { '/etc/mrtest-svc.rb':
  ensure  => file,
  content => "SETTINGS = ${stdlib::to_ruby($settings)}\n",
}
notify { 'mrtest-hocon':
  message => "${hocon['name']} cpu=${hocon['limits']['cpu']} memory=${hocon['limits']['memory']} values=${join(stdlib::nested_values($settings['server']), ',')}",
}
