notice(generate('/bin/nosuchcmd'))
