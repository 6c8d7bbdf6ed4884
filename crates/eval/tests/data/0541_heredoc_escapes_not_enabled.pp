$t = @("END"/t)
  a\qb\nc\$d \\ e
  | END
notice($t)
$u = @(END/t)
  a\qb\$d
  | END
notice($u)
