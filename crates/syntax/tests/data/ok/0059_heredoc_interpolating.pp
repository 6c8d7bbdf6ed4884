$x = 'value'
$a = @("END")
  x is $x and ${x}
  END
notice($a)
