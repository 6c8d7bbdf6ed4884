# A directory tree copied from a source, with ignored names, a mode for
# everything (directories get search permission), and purging.
file { '/tmp/mrtest-apply/dst':
  ensure  => directory,
  source  => '/tmp/mrtest-apply/src',
  recurse => true,
  purge   => true,
  ignore  => ['*.swp'],
  mode    => '0640',
}
