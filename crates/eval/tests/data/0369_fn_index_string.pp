notice(index('hello', 'l'))
notice(index('hello', 'z'))
notice('abcabc'.index('c'))
