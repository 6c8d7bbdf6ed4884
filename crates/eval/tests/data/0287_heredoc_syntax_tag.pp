$t = @(END:json)
  {"a": 1}
  | END
notice($t)
