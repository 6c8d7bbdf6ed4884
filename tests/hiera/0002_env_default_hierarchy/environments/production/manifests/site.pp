notify { 'mrtest-ntp':
  message => String(lookup('ntp::servers', Array[String], 'first', ['fallback.ntp.example.com'])),
}
