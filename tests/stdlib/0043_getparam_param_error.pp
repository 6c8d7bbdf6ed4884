notice(getparam(File['/tmp'], 1))
