function f() >> Integer { 'str' }
notice(f())
