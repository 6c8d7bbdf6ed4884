class in { }
