function f() { 1 }
$v = 1
notice(defined('f'))
notice(defined('$v'))
notice(defined('$nope'))
