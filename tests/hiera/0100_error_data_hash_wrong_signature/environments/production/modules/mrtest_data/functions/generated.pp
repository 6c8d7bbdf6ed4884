function mrtest_data::generated(Hash $options) {
  { 'mrtest::k' => 'generated' }
}
