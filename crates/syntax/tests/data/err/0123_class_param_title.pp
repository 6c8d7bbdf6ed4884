class foo ($title) { }
