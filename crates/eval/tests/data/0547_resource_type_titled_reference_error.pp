Resource[Notify['x']] { 'b': message => 'x' }
