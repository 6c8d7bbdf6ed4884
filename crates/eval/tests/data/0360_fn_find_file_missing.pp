notice(find_file('nomodule/nofile.txt'))
