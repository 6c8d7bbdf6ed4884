mrtestvhost { 'shop.example.com': port => 443, ssl => true }
mrtestvhost { 'blog.example.com': }
