notice(reverse_each(undef))
