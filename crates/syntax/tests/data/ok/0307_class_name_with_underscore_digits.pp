class my_class2 { }
