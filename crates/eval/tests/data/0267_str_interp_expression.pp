notice("${1 + 2}")
notice("sum: ${3 * 4 - 2}")
$arr = [1, 2, 3]
notice("len ${arr.length}")
