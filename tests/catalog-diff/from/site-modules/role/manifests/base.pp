# The role of a node with nothing else to do.
class role::base {
  include profile::base
}
