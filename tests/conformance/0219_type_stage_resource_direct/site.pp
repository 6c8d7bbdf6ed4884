stage { 'mrtest_first': }
stage { 'mrtest_last': require => Stage['main'] }
Stage['mrtest_first'] -> Stage['main']
