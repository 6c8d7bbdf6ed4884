$a = 1 >> Integer >>
