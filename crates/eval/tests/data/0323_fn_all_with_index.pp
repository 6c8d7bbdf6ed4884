notice([10, 11].all |$i, $x| { $x >= 10 + $i })
