$args = ['%s-%s', 'a', 'b']
notice(sprintf(*$args))
