# The argument_mismatch handler words the error.
notice(mrtest_rb::port('HTTP', 80))
