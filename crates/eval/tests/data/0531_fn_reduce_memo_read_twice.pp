# A memo read twice, or by a nested lambda, or by name, stays in place.
$twice = [1, 2].reduce({}) |$memo, $i| { $n = $memo.length $memo + { "k${i}" => $n } }
notice($twice)
$nested = [1, 2].reduce([]) |$memo, $i| { [$i].map |$x| { $memo + [$x] }.flatten }
notice($nested)
$named = [1, 2].reduce([]) |$memo, $i| { $memo + [getvar('memo').length] }
notice($named)
$outer = [10]
$closure = [1, 2].map |$i| { $outer + [$i] }
notice($closure)
notice($outer)
