node 'web01.example.com' { }
