$d = {a => {b => [1, 2, {c => 'x'}]}}
notice(get($d, 'a.b.2.c'))
notice($d.get('a.b.0'))
notice($d.get('a.nope'))
notice($d.get('a.nope', 'dflt'))
