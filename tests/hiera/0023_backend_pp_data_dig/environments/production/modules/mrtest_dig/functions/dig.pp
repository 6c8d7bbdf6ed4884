function mrtest_dig::dig(Array[Variant[String, Integer]] $segments, Hash $options, Puppet::LookupContext $context) {
  notice("dig called with ${segments}")
  $found = $options['tree'].dig(*$segments)
  $found ? {
    undef   => $context.not_found(),
    default => $found,
  }
}
