if (1 < 2) and ('a' in ['a']) { notice(1) }
