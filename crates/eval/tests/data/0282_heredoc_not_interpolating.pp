$who = 'world'
$t = @(END)
  hello ${who}
  | END
notice($t)
