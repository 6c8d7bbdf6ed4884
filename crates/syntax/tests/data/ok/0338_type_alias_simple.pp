type MyMod::Port = Integer[1, 65535]
