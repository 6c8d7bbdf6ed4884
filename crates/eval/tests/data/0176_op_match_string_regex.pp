notice('hello' =~ /ell/)
notice('hello' !~ /xyz/)
notice('hello' =~ 'h.l')
notice('HELLO' =~ /ell/)
