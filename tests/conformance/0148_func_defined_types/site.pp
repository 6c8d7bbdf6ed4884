$a = defined('file')
$b = defined(File)
$c = defined('mrtest_nosuchtype')
$d = defined('notify')
notify { 'mrtest-defined-types': message => "${a} ${b} ${c} ${d}" }
