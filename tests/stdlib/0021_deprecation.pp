deprecation('mrtest_key', 'first message')
deprecation('mrtest_key', 'the same key again, not warned')
deprecation('mrtest_other', 'another key')
include mrtest_deprecated
[1].each |$x| {
  deprecation('mrtest_in_lambda', 'deprecated inside a lambda')
}
