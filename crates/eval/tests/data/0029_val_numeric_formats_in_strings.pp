$f = 2.50
notice("f=${f}")
$h = 0x10
notice("i=${h}")
notice("sum=${1.5 + 1}")
