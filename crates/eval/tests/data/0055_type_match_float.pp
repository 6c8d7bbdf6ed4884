notice(1.5 =~ Float[1.0, 2.0])
notice(1 =~ Float)
notice(1 =~ Numeric)
notice(1.5 =~ Numeric)
