notice(SemVer.new('2.0.0'))
notice(SemVer({major => 1, minor => 2, patch => 3}))
