function half(Integer $x) >> Float { $x / 2.0 }
notice(half(3))
