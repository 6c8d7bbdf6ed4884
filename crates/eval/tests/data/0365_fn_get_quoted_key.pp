$d = {'a.b' => 1, 'x' => {'y z' => 2}}
notice($d.get('"a.b"'))
notice($d.get('x."y z"'))
