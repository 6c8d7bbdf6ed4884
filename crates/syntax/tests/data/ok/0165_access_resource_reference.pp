notice(File['/tmp/a'])
notice(Package['a', 'b'])
