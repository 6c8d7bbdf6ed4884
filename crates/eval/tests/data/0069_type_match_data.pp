notice({a => [1, 2.0, 'x', true, undef]} =~ Data)
notice({1 => 2} =~ Data)
notice(/x/ =~ Data)
notice(default =~ Data)
