case 1 {
  1, 2,: { notice('x') }
  default: {}
}
