# sudo driven by its `configs` hash and `defaults`, keeping a file it does
# not manage (purge_ignore), and the sudo::allow class adding users and
# groups.
class { 'sudo':
  purge_ignore => ['mrtest-keep*'],
  defaults     => {
    'env_reset'         => {},
    'mail_badpass'      => {},
    'secure_path'       => { 'value' => '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' },
    'timestamp_timeout' => { 'value' => 10 },
  },
  configs      => {
    'mrtest-ops' => {
      'content'  => '%mrtest-ops ALL=(ALL) ALL',
      'priority' => 15,
    },
  },
}
class { 'sudo::allow':
  add_users  => ['mrtest-alice'],
  add_groups => ['mrtest-wheel'],
}
