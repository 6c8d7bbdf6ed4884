foo { }
