class mrtest_uses_node_var {
  notify { 'mrtest-node-var': message => "role is ${mrtest_role}" }
}
node default {
  $mrtest_role = 'webserver'
  include mrtest_uses_node_var
}
