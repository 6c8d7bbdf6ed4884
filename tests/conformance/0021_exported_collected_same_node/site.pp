@@notify { 'mrtest-exp-note':
  message => 'exported',
  tag     => 'mrtest_x',
}
Notify <<| tag == 'mrtest_x' |>>
