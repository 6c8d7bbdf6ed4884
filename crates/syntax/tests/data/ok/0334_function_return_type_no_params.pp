function mymod::now() >> String { 'now' }
