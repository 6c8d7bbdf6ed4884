else { notice(1) }
