class foo inherits 'bar' { }
