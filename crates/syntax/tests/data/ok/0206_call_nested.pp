notice(join(split('a,b', ','), '-'))
