notify { "mrtest-k": message => lookup("mrtest::k") }
