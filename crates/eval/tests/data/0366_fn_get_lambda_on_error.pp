$d = {a => 'str'}
notice($d.get('a.b') |$err| { "handled: ${err.issue_code}" })
