type Mymod::Port =
