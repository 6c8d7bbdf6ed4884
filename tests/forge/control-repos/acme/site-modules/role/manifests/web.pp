# A web server: Apache serving the virtual hosts of the node's data.
class role::web {
  include profile::base
  include profile::web
}
