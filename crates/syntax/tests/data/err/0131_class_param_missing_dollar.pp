class foo (x) { }
