foo() = 1
