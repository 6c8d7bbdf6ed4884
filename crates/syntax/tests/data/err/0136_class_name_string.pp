class 'foo' { }
