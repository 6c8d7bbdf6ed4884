notify { "mrtest-ntp": message => String(lookup("mrtest::ntp_servers")) }
