$h = {
  'a' => @(X),
    one
    | X
  'b' => 2,
}
notice($h)
