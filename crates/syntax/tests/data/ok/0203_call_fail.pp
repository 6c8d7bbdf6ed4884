if false { fail('x') }
