notice(capitalize('hello world'))
notice(capitalize('hELLO'))
notice(capitalize(['abc', 'dEF']))
