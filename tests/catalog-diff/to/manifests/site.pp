# Every node gets the role its `role` fact names.
node default {
  $role = pick($facts['role'], 'base')
  include "role::${role}"
}
