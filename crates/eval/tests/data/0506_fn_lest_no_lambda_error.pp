notice(lest(undef))
