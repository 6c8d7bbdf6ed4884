class mrtest_parent {
  $greeting = 'hello from parent'
  notify { 'mrtest-parent': }
}
class mrtest_kid inherits mrtest_parent {
  notify { 'mrtest-kid': message => $greeting }
  notify { 'mrtest-kid-qualified': message => $mrtest_parent::greeting }
}
include mrtest_kid
