notice(undef)
notice([undef])
notice({a => undef})
notice("x${undef}y")
