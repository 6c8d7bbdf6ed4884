notice(type(undef))
notice(type(default))
notice(type(undef, generalized))
