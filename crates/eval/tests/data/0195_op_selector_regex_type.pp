$v = 'abc123'
notice($v ? { /^\d+$/ => 'digits', /(\d+)/ => "has ${1}", default => 'none' })
notice(5 ? { String => 's', Integer => 'i' })
