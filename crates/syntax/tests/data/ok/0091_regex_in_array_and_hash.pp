$a = [/a/, /b/]
$h = { /a/ => 1 }
notice($a, $h)
