notify { "mrtest-loop": message => lookup("mrtest::a") }
