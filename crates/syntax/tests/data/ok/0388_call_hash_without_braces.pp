foo('a', b => 1)
notice(a => 1)
notice('a', b => 1, 'x', c => 2, d => 3)
$x = [a => 1, b => 2, 3]
$y = 'x'.sprintf(a => 1)
