notice([1, 2, 3, 4, 5].slice(2))
[1, 2, 3, 4].slice(2) |$a, $b| { notice("${a}+${b}") }
notice({a => 1, b => 2, c => 3}.slice(2))
