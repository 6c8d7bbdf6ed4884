$x = Notify
$x { 'b': message => 'x' }
