notice(getvar(5))
