function box($w, $h = $w) { "${w}x${h}" }
notice(box(3))
notice(box(3, 4))
