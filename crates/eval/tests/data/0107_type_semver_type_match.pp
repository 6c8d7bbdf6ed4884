notice(SemVer('1.2.3') =~ SemVer['>=1.0.0'])
notice(SemVer('0.9.0') =~ SemVer['>=1.0.0'])
notice('1.2.3' =~ SemVer)
