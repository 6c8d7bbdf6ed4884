node 'default' {
  notify { 'mrtest-quoted-default': }
}
node /^mrtest-zzz/ {
  notify { 'mrtest-zzz': }
}
