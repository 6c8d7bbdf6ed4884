node "db01.example.com" { }
