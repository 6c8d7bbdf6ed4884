type Mymod::Port = 42
