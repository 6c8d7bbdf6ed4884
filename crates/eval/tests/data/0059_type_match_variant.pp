notice(1 =~ Variant[String, Integer])
notice(1.0 =~ Variant[String, Integer])
notice(undef =~ Variant[Undef, String])
