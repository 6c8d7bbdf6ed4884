# One dispatcher: its parameter's type is named.
notice(mrtest_rb::each_pair([1]) |$k, $v| { $k })
