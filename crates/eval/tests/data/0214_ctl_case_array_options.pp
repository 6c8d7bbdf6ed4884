$x = 3
case $x {
  [1, 2]: { notice('array literal matches whole?') }
  1, 2, 3: { notice('list option') }
}
case [1, 2] {
  [1, 2]: { notice('array equal') }
  default: { notice('no') }
}
