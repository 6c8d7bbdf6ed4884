class foo-bar { }
