# A 4.x function of a module: dispatchers chosen by the arguments, an
# optional parameter, repeated parameters and a lambda.
notice(mrtest_rb::shout('hello'))
notice(mrtest_rb::shout('hello', 3))
notice(mrtest_rb::shout(['a', 'b'], '!', '?') |$t| { "<${t}>" })
notice(mrtest_rb::each_pair({ 'x' => 1, 'y' => 2 }) |$k, $v| { "${k}=${$v * 10}" })
