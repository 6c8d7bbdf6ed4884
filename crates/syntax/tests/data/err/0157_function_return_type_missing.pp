function foo() >> { 1 }
