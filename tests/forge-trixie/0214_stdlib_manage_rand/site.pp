# Resources given as data to the stdlib::manage class, host-stable random
# strings (stdlib::fqdn_rand_string, stdlib::seeded_rand_string), and
# packages declared idempotently with stdlib::ensure_packages.
class { 'stdlib::manage':
  create_resources => {
    'file'    => {
      '/etc/mrtest-managed.conf' => {
        'ensure'  => 'file',
        'content' => "managed by stdlib::manage\n",
        'mode'    => '0640',
      },
    },
    'package' => {
      'mrtest-tree' => {
        'ensure' => 'installed',
        'name'   => 'tree',
      },
    },
  },
}
$token = stdlib::fqdn_rand_string(16, 'abcdef0123456789', 'mrtest-token')
$cookie = stdlib::seeded_rand_string(24, "${facts['networking']['fqdn']}-cookie")
file { '/etc/mrtest-secrets.conf':
  ensure  => file,
  mode    => '0600',
  content => "token=${token}\ncookie=${cookie}\n",
}
stdlib::ensure_packages(['curl', 'jq'])
stdlib::ensure_packages({ 'htop' => { 'ensure' => 'latest' } })
