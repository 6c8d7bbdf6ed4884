class mrtest_known_cls { }
class mrtest_unused_cls { }
include mrtest_known_cls
$a = defined('mrtest_known_cls')
$b = defined('mrtest_unused_cls')
$c = defined('mrtest_no_cls')
$d = defined(Class['mrtest_known_cls'])
$e = defined(Class['mrtest_unused_cls'])
notify { 'mrtest-defined-classes': message => "${a} ${b} ${c} ${d} ${e}" }
