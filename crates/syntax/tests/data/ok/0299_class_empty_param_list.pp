class foo() { }
