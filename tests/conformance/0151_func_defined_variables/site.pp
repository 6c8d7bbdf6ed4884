$mrtest_set = 'x'
$mrtest_undef = undef
class mrtest_dv { $local = 1 }
include mrtest_dv
$a = defined('$mrtest_set')
$b = defined('$mrtest_undef')
$c = defined('$mrtest_never')
$d = defined('$mrtest_dv::local')
$e = defined('$facts')
notify { 'mrtest-defined-vars': message => "${a} ${b} ${c} ${d} ${e}" }
