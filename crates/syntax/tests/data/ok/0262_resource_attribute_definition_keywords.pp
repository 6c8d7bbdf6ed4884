mytype { 'a':
  class       => 1,
  define      => 2,
  node        => 3,
  function    => 4,
  type        => 5,
  inherits    => 6,
  private     => 7,
  attr        => 8,
  application => 9,
  site        => 10,
  produces    => 11,
  consumes    => 12,
}
