$x = case 'a' { 'a': { 1 } default: { 2 } }
notice($x)
