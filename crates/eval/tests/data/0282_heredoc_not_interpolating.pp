$name = 'world'
$t = @(END)
  hello ${name}
  | END
notice($t)
