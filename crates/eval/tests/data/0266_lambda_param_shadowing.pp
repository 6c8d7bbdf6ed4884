$x = 'outer'
with('inner') |$x| { notice($x) }
notice($x)
