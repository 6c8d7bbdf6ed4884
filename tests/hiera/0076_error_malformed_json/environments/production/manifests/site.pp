notify { "mrtest-good": message => lookup("mrtest::good") }
