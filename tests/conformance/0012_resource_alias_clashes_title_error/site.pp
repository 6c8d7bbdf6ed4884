notify { 'mrtest-n1': }
notify { 'mrtest-n2':
  alias => 'mrtest-n1',
}
