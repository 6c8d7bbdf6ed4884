notice(call('nope_function', 1))
