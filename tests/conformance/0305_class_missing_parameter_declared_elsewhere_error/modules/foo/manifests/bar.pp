class foo::bar {
  class { 'foo': other => 2 }
}
