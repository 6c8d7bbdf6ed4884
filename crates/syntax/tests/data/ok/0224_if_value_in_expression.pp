notice(if true { 'a' } else { 'b' })
