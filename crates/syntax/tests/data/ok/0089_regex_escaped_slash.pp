notice('a/b' =~ /a\/b/)
