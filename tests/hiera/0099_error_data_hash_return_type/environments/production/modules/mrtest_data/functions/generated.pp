function mrtest_data::generated(Hash $options, Puppet::LookupContext $context) >> Hash {
  { 'mrtest::k' => 'generated' }
}
