$x = 'abc'
if $x =~ /b/ { notice(1) }
if $x !~ /z/ { notice(2) }
