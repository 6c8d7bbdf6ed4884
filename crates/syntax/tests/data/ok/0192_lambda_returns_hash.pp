$h = [1].map |$x| { { 'v' => $x } }
notice($h)
