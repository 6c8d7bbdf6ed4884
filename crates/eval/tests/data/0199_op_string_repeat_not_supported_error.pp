notice('ab' * 3)
