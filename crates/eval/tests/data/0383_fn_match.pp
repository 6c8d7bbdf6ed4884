notice(match('abc123', /([a-z]+)(\d+)/))
notice(match('abc', /\d/))
notice(match(['a1', 'b', 'c3'], /\w(\d)/))
notice('x=1'.match('(\w)=(\d)'))
