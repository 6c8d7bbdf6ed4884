$m = -9223372036854775807 - 1
notice($m)
notice($m - 1)
