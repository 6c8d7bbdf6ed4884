case 'b' {
  default: { notice('default') }
  'b': { notice('b wins') }
}
