if $facts['os']['family'] == 'Debian' {
  fail('mrtest refuses to compile on Debian')
}
