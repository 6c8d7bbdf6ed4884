mymod::thing { 'x':
  value => 1,
}
