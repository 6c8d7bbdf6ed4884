notice(generate('/bin/false'))
