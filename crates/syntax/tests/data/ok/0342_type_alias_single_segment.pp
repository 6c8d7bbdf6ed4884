type Port = Integer[1, 65535]
