notice(join(undef, ','))
