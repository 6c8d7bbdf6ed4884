define mrtest_def_here () { }
$a = defined('mrtest_def_here')
$b = defined(Mrtest_def_here)
$c = defined('mrtestdefmod::thing')
$d = defined('mrtestdefmod::absent')
notify { 'mrtest-defined-deftypes': message => "${a} ${b} ${c} ${d}" }
