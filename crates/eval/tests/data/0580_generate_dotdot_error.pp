notice(generate('/bin/../bin/echo', 'x'))
