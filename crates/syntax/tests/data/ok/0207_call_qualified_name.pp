$x = mymod::myfunc(1)
