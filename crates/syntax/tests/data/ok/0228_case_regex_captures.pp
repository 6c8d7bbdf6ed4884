case 'v12' {
  /^v(\d+)$/: { notice($1) }
  default: {}
}
