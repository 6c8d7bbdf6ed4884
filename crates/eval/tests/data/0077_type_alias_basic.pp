type MyPort = Integer[1, 65535]
notice(MyPort)
notice(80 =~ MyPort)
notice(70000 =~ MyPort)
