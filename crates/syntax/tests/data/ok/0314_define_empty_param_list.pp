define foo() { }
