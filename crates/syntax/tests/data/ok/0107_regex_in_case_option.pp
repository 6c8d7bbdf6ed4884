case 'web01' {
  /^web\d+$/: { notice('web') }
  /^db/, /^sql/: { notice('db') }
  default: {}
}
