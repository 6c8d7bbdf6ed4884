function hello() { 'hi' }
