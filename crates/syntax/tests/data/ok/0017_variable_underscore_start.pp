$_x = 1
$x_1 = $_x
notice($x_1)
