node default {
  include role::app
}
