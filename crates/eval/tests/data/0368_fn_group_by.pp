notice(['apple', 'avocado', 'banana'].group_by |$s| { $s[0] })
notice([1, 2, 3, 4].group_by |$x| { $x % 2 })
notice({a => 1, b => 2}.group_by |$k, $v| { $v > 1 })
