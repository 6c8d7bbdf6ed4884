notice(type(default))
notice(type(undef))
notice(default =~ Default)
