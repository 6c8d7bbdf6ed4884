notice(Array('abc', true))
notice(Array([1, 2], true))
notice(Array(5, true))
