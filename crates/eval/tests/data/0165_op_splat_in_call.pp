$args = ['%s-%s', 'x', 'y']
notice(sprintf(*$args))
function three($a, $b, $c) { "${a}${b}${c}" }
notice(three(*[1, 2, 3]))
