notify { "mrtest-v4": message => lookup("mrtest::packages") }
