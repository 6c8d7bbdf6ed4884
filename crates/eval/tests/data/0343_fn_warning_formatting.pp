warning(1.0)
warning([1, {a => 'b'}])
warning(undef)
