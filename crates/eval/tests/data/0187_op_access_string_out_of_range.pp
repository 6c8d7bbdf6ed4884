$s = 'abc'
notice("[${s[5]}]")
notice("[${s[1, 10]}]")
notice("[${s[-10]}]")
