notice(fact('kernel'))
notice(fact('os.family'))
notice(fact('mrtest_missing.x'))
notice(type(fact('mrtest_missing')))
