function mrtest_kv::lookup(String $key, Hash $options, Puppet::LookupContext $context) {
  if $key == 'mrtest::computed' {
    "computed for ${key} in ${context.environment_name}"
  } elsif $key == 'mrtest::cached' {
    if $context.cache_has_key($key) {
      "from cache: ${context.cached_value($key)}"
    } else {
      $context.cache($key, 'first')
    }
  } elsif $key in $options['store'] {
    $options['store'][$key]
  } else {
    $context.not_found()
  }
}
