node 'a' { }
node 'b' { }
