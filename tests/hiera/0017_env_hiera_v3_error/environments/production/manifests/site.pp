notify { "mrtest-v3": message => lookup("mrtest::k") }
