$a = @(eot)
content
eot
notice($a)
