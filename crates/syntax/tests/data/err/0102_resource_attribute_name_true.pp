mytype { 'a':
  true => 1,
}
