notice({})
notice({a => 1, b => 'two'})
notice({'key' => [1, 2], 3 => {x => y}})
notice({a => {b => {c => 1}}})
