notice(split('a-b_c', Regexp['[-_]']))
