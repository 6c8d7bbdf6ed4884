class conf { $level = 3 }
include conf
notice(getvar('conf::level'))
notice(getvar('missing', 'fallback'))
$d = {k => [1, 2]}
notice(getvar('d.k.1'))
