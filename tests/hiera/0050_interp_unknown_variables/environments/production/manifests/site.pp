notify { "mrtest-level": message => "${lookup("mrtest::level")} ${lookup("mrtest::unknown_var")}" }
