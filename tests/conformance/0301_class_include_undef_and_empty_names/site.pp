class mrtest_present { notify { 'mrtest-present': } }
$none = []
include $none
include mrtest_present
