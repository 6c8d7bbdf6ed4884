function greet(String $name, String $greeting = 'Hello') { "${greeting}, ${name}!" }
notice(greet('Ann'))
notice(greet('Bob', 'Hi'))
