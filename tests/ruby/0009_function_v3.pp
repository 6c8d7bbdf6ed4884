# A 3.x function: undef as '' at the top and nil inside, variables of the
# calling scope, and a statement function whose value is dropped.
$mrtest_where = 'main'
notice(mrtest_legacy(undef, 'a', 1, [undef, 'b'], { 'k' => undef }))
notice(mrtest_statement('x'))
