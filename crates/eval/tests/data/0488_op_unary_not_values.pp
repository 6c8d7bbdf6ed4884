notice(!5)
notice(!'false')
notice(!!undef)
