notify { 'mrtest-deferred':
  message => Deferred('join', [['a', 'b'], '-']),
}
