$v = if true { 'yes' } else { 'no' }
notice($v)
$w = if false { 'yes' }
notice($w =~ Undef)
