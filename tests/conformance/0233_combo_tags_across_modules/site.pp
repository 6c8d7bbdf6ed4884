include role::tagged
notify { 'mrtest-summary':
  message => "web=${tagged('profile')} role=${tagged('role::tagged')}",
}
