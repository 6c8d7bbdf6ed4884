function mrtestfns::double(Integer $n) >> Integer {
  $n * 2
}
