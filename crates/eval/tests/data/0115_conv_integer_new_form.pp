notice(Integer.new('5'))
notice(Integer.new('0x1f'))
notice(new(Integer, '7'))
