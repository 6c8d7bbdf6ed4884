function f(Pattern[/^\d+$/] $p) { $p }
notice(f('12a'))
