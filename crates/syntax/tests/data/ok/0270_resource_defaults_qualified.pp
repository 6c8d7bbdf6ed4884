Mymod::Thing { value => 1 }
