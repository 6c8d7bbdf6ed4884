$r = false and fail('not evaluated')
notice($r)
$s = true or fail('not evaluated')
notice($s)
