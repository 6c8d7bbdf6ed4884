notice(max(1, 'a'))
