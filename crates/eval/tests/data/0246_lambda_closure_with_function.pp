$greeting = 'hi'
$f = [a, b].map |$n| { "${greeting} ${n}" }
notice($f)
