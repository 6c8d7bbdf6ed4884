function mymod::sum(Integer *$nums) >> Integer {
  $nums.reduce(0) |$m, $n| { $m + $n }
}
