notice(sprintf('%p', 'x'))
notice(sprintf('%p', [1, 'a']))
notice(sprintf('%s|%5s|%-5s|', true, 'ab', 'cd'))
