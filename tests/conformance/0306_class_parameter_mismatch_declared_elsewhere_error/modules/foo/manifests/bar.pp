class foo::bar {
  # A comment moves the declaration away from where the class file has its parameter.
  class { 'foo':
    port => 'eighty',
  }
}
