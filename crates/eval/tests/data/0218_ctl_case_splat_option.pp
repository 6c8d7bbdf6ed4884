$opts = ['x', 'y']
case 'y' {
  *$opts: { notice('matched splat') }
  default: { notice('none') }
}
