$sum = [1, 2, 3].reduce(0) |$memo, $x| { $memo + $x }
notice($sum)
