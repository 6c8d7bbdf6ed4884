notice(undef =~ Any)
notice(undef =~ Undef)
notice(default =~ Default)
notice(1 =~ Undef)
