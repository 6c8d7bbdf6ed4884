function mrtestutil::ports(String $kind) >> Array[Mrtestutil::Port] {
  $kind ? {
    'web'   => [80, 443],
    default => [],
  }
}
