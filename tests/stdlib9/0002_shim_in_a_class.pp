# The warning names where the shim was called: here, inside a class.
class mrtest_shims {
  notice(to_yaml({ 'key' => 'value' }))
}
include mrtest_shims
notice(to_yaml([1]))
