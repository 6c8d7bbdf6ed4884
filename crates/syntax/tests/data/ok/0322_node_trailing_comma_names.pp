node 'a', 'b', { }
