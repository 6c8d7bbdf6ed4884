notice(shellquote('simple'))
notice(shellquote('has space'))
notice(shellquote("it's"))
notice(shellquote('a', 'b c', ['d', 'e$f']))
