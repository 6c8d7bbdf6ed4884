if true { 1 } else { 2 }
notice('after')
