function add(Integer $a, Integer $b) { $a + $b }
notice(1.add(2))
notice(5.add(5).add(1))
