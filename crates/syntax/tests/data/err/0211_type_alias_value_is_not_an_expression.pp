type MyMod::Port = Int-eger[1, 65535]
