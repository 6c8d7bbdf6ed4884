notice(scanf('42', '%i'))
notice(scanf('abc 12', '%s %d'))
notice(scanf('x', '%d'))
$r = scanf('7', '%d') |$a| { $a[0] * 2 }
notice($r)
