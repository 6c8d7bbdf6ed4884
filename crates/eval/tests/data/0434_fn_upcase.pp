notice(upcase('hello'))
notice(upcase(['a', 'b']))
notice('mIxEd'.upcase)
notice(upcase({'k' => 'v'}))
