node 'mrtest.example.com' { }
node 'mrtest.example.com' { }
