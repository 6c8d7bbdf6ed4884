$t = 'nosuch'
Resource[$t] { 'b': message => 'x' }
