notice(values_at(['a', 'b'], 'x'))
