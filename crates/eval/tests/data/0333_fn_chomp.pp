notice("[${chomp("line\n")}]")
notice("[${chomp("line\r\n")}]")
notice("[${chomp("line\n\n")}]")
notice(chomp(["a\n", 'b']))
