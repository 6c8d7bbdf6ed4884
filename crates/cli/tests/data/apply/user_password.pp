# A user with a password and no supplementary groups: Puppet's useradd
# provider creates the account with `useradd` (no empty `-G`, `-M` without
# a home) and only then sets the password with `usermod -p`, which rewrites
# /etc/passwd once more: its backup then holds the new account.
user { 'mrtest-pw':
  ensure     => present,
  password   => '!!',
  groups     => [],
  managehome => false,
  home       => '/nonexistent/mrtest-pw',
}
