notify { 'mrtest-fallback':
  message => file('mrteststatic2/missing.txt', 'mrteststatic2/present.txt'),
}
