notice(sprintf('[%*d]', 5, 42))
notice(sprintf('%c', 65))
notice(sprintf('%.2s', 'abcdef'))
