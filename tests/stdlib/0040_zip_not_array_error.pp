notice(zip([1], 'a'))
