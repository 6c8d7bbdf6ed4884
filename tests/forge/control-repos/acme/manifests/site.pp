# acme's site manifest. Every node has one role, named by the `role` key of
# its Hiera data (data/nodes/<certname>.yaml); the node-scope $role also
# selects the role level of the hierarchy (data/role/<role>.yaml).

# Resource defaults for the whole site.
File {
  backup => false,
}

node default {
  $role = lookup('role', Enum['web', 'db', 'lb'])
  include "role::${role}"
}
