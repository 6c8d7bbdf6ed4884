notice(undef =~ Optional[String])
notice('x' =~ Optional[String])
notice(1 =~ Optional[String])
notice(undef =~ String)
