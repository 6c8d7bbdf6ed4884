# Iteration over a 100,000-element array: map, filter, reduce.
$numbers = Integer[1, 100000].map |$i| { $i }
$doubled = $numbers.map |$n| { $n * 2 }
$even = $doubled.filter |$n| { $n % 4 == 0 }
$sum = $even.reduce(0) |$memo, $n| { $memo + $n }
notice("count=${even.length} sum=${sum}")
