$r = case 4 { 1, 2: { 'low' } default: { 'high' } }
notice($r)
