$x = $facts['mrtest_no_such_fact']
$y = $facts.dig('os', 'nope', 'deeper')
notify { 'mrtest-missing-fact': message => "x=${x} y=${y} undef=${$x == undef and $y == undef}" }
