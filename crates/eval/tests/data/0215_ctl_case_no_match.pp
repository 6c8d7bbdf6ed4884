$r = case 'zzz' { 'a': { 1 } }
notice($r)
notice('after case')
