class ntp (
  Array[String] $servers,
  Boolean $iburst,
) {
  notify { 'mrtest-ntp': message => "${servers} ${iburst}" }
}
