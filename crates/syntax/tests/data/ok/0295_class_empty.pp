class foo { }
