define mrtest_known_define (String $a = 'x') { }
mrtest_known_define { 'mrtest-k': a => 'ok', bogus => 'no' }
