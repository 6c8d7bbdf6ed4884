$t = Struct[{ name => String, Optional[port] => Integer[0, 65535] }]
notice($t)
