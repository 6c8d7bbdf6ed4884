# An application server: globex's application as a systemd service, with
# its MySQL database (local on staging nodes).
class role::app {
  include profile::base
  include profile::app
}
