notice(unwrap(Sensitive('s')))
notice(unwrap('plain'))
notice(Sensitive([1, 2]).unwrap)
