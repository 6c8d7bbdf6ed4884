$mrtest_role = 'webserver'
node default {
  $mrtest_node_var = 'set in the node block'
  notify { 'mrtest-top-role-level': message => lookup('mrtest::role_level') }
  notify { 'mrtest-node-var': message => lookup('mrtest::node_var') }
  include profile::web
}
