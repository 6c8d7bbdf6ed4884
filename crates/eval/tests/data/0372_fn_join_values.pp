notice([1.0, true, undef, 'x'].join('|'))
notice([{a => 1}].join)
