$x = 1
$a = "value ${x"
