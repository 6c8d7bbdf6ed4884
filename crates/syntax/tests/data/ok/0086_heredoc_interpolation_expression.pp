$items = ['a', 'b']
$a = @("END")
  count: ${items.length}
  first: ${items[0]}
  | END
notice($a)
