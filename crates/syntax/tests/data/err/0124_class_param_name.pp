class foo ($name) { }
