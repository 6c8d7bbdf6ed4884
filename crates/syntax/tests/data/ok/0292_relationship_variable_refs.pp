$p = Package['a']
$s = Service['b']
$p -> $s
