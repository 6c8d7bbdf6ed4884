$x = 5
if $x > 10 { notice('big') } elsif $x > 3 { notice('medium') } else { notice('small') }
if $x == 1 { notice('one') } elsif $x == 2 { notice('two') } else { notice('other') }
