notice(1);
