notice(generate('echo', 'x'))
