# String building: interpolation, join, split, upcase and regsubst over
# 20,000 strings.
$words = Integer[1, 20000].map |$i| { "item-${i}-${$i % 7}" }
$line = join($words, ',')
$parts = split($line, ',')
$loud = $parts.map |$w| { upcase(regsubst($w, '-(\d+)$', '_\1')) }
notice("${loud.length} ${loud[-1]} ${size($line)}")
