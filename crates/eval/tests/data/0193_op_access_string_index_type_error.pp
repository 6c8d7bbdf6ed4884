notice('abc'['x'])
