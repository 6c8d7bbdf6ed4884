# The limits class's `entries` hash, with limits.conf itself managed and
# limits.d left unpurged.
class { 'limits':
  manage_limits_file => true,
  purge_limits_d_dir => false,
  entries            => {
    'mrtest-web/nofile' => {
      'soft' => 8192,
      'hard' => 16384,
    },
    '@mrtest-batch/memlock' => {
      'both' => 'unlimited',
    },
  },
}
