node 'mrtest' {
  notify { 'mrtest-short': }
}
node default {
  notify { 'mrtest-short-default': }
}
