$s = Sensitive('hunter2')
notice($s.unwrap)
notice(unwrap($s))
notice($s.unwrap |$v| { "len ${v.length}" })
