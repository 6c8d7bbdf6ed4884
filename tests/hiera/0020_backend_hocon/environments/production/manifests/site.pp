notify { "mrtest-hocon": message => String(lookup("mrtest::users")) }
