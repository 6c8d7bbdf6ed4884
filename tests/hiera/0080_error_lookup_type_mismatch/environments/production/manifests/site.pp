$servers = lookup('mrtest::servers', Array[String])
notify { 'mrtest-servers': message => "${servers}" }
