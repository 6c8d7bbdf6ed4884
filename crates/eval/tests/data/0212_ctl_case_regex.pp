case 'web-01' {
  /^db-(\d+)$/: { notice("db ${1}") }
  /^web-(\d+)$/: { notice("web ${1}") }
  default: { notice('unknown') }
}
