notice(sprintf('%d', 3.7))
notice(sprintf('%.3e', 12345.678))
notice(sprintf('%g', 0.0001))
