notice(SemVer('1.2.3'))
notice(SemVer('1.0.0-rc.1+build.5'))
notice(SemVer(1, 2, 3))
notice(SemVer('1.2.3') < SemVer('1.10.0'))
