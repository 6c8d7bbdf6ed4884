::mymod::thing { 'x': }
