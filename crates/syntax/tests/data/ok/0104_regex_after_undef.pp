$b = [undef, /2/]
notice($b)
