node 'a.example.com', 'b.example.com', /^c/, d { }
