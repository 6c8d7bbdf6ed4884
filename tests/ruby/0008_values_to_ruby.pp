# Values as a 4.x function's Ruby sees them, and back.
$values = mrtest_rb::inspect(undef, default, true, 3, 2.5, 'text', /^re+$/, [1, [2]], { 'k' => 'v', 1 => 2 }, Integer[1, 2])
notice($values)
notice(type($values[9]))
notice($values[1] == default)
