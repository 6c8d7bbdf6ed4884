function greet(Optional[String] $n = undef) { if $n { "hi ${n}" } else { 'hi nobody' } }
notice(greet())
notice(greet('ann'))
notice(greet(undef))
