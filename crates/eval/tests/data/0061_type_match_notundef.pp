notice(1 =~ NotUndef)
notice(undef =~ NotUndef)
notice('a' =~ NotUndef[String])
notice(1 =~ NotUndef[String])
