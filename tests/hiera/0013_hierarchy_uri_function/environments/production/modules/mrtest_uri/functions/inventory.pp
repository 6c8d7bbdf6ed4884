function mrtest_uri::inventory(Hash $options, Puppet::LookupContext $context) {
  {
    'mrtest::inventory_uri'     => $options['uri'],
    'mrtest::inventory_options' => $options,
  }
}
