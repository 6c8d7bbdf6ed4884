$t = Regexp[/^x/]
notice($t)
