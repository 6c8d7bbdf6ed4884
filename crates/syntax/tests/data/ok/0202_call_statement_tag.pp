tag 'a'
tag 'b', 'c'
