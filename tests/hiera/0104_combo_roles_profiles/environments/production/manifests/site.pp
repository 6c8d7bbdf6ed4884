node default {
  include "role::${facts['mrtest_role']}"
}
