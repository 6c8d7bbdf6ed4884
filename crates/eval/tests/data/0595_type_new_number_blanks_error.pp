# Blanks before a number are allowed when a string is converted to one;
# blanks after it are not.
notice(Integer(' 42'))
notice(Integer("\t42"))
notice(Float(' 4.2'))
notice(Numeric(' 42'))
notice(Integer('  42 '))
