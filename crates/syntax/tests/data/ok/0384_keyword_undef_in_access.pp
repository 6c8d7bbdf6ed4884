$h = { undef => 1 }
notice($h[undef])
