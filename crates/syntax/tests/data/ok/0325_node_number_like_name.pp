node 123 { }
