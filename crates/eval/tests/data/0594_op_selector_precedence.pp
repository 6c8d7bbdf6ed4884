# The selector takes all that binds tighter on its left (arithmetic,
# comparisons, matches, `in`, `!`), and `and`/`or` take the selector whole;
# a selector's value goes on into the operators after it.
$a = 'b' in ['a', 'b'] ? { true => 'yes', default => 'no' }
$b = 1 + 1 ? { 2 => 'two', default => 'other' }
$c = 1 == 1 ? { true => 'eq', default => 'ne' }
$d = 'abc' =~ /b/ ? { true => 'm', default => 'nm' }
$e = !true ? { false => 'f', default => 'x' }
$f = 2 * 3 ? { 6 => 'six', default => 'other' }
$g = true and false ? { false => 'and', default => 'x' }
$h = 1 < 2 ? { true => 'lt', default => 'x' }
$i = 1 ? { 1 => 'one', default => 'x' } == 'one'
notice("a=${a} b=${b} c=${c} d=${d} e=${e} f=${f} g=${g} h=${h} i=${i}")
