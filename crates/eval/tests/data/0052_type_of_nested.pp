notice(type([[1], {a => [true]}]))
notice(type({x => {y => 1.5}}, generalized))
