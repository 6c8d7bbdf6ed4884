notice(5.then |$x| { $x * 2 })
notice(undef.then |$x| { 'not called' })
notice([1, 2].then |$a| { $a.length })
