case 1 {
  default: { notice('d') }
  1: { notice('one') }
}
