$r = '5'.convert_to(Integer) |$v| { $v * 10 }
notice($r)
