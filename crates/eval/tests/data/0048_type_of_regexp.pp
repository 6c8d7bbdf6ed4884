notice(type(/ab/))
notice(type(/ab/, generalized))
