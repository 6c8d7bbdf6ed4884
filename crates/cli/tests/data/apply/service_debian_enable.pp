# A running daemon whose init script has one kill link someone made by
# hand: enabling it makes its links again from the script's header, as
# Puppet's debian provider does (`update-rc.d -f NAME remove`, then
# `defaults`), every runlevel's.
service { 'mrtest-svc-deb-enable':
  ensure   => running,
  enable   => true,
  provider => debian,
}
