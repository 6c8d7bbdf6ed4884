function classify(Integer $n) {
  if $n < 0 { return('negative') }
  if $n == 0 { return('zero') }
  'positive'
}
notice(classify(-1))
notice(classify(0))
notice(classify(5))
