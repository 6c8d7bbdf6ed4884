node /^mrtest-(web|db)(\d+)\./ {
  $mrtest_role = $1
  $mrtest_index = Integer($2)
  include "role::${mrtest_role}"
}
node default {
  include role::base
}
