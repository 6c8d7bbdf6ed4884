notice('3' + 4)
notice('2.5' * 2)
notice('0x10' + 0)
