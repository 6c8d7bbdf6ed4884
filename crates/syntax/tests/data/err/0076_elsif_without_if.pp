elsif true { notice(1) }
