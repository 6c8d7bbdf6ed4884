class foo
