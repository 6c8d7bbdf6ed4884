type MyPort = Integer[1, 65535]
assert_type(MyPort, 0)
