# Parameters of other lambdas: the collection passed in is not changed.
$base = [1]
$lists = [[1], [2]]
$lists.each |$l| { notice($l << 9) }
notice($lists)
$with = with($base) |$b| { $b + [2] }
notice($with)
notice($base)
