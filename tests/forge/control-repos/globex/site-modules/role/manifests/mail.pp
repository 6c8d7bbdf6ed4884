# The outgoing mail relay: Postfix sending through the tier's smarthost.
class role::mail {
  include profile::base
  include profile::mail
}
