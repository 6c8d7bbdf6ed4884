function f(String[3] $s) { $s }
notice(f('ab'))
