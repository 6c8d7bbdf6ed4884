notify { "mrtest-expiry": message => lookup("mrtest::other") }
