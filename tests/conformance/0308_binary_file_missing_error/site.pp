binary_file('m/nosuch')
