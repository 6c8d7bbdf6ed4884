class foo (
  Hash[String, Array[Integer]] $map = { 'a' => [1, 2] },
  $sel = $facts['os'] ? { 'x' => 1, default => 2 },
) { }
