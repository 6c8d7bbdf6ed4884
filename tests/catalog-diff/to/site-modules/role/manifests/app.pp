# An application server.
class role::app {
  include profile::base
  include profile::app
}
