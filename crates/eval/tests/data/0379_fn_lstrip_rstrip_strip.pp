notice("[${lstrip('  a b  ')}]")
notice("[${rstrip('  a b  ')}]")
notice("[${strip("\t a b \n")}]")
notice(strip(['  x ', 'y  ']))
