node 'MRTEST.Example.COM' {
  notify { 'mrtest-case-insensitive': }
}
node default {
  notify { 'mrtest-case-default': }
}
