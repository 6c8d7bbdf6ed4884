node 'x' {
  include base
  class { 'ntp': }
  $role = 'web'
}
