$count = 3
$width = 4
notice("${count + $width}")
notice("${count * 2}")
