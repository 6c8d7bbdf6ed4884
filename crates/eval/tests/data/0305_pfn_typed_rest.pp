function sum_all(Integer *$nums) { $nums.reduce(0) |$a, $b| { $a + $b } }
notice(sum_all(1, 2, 3, 4))
notice(sum_all())
