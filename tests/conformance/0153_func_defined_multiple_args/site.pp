notify { 'mrtest-one-of': }
$a = defined(File['/tmp/mrtest-none'], Notify['mrtest-one-of'])
$b = defined('$nope', 'file')
notify { 'mrtest-defined-multi': message => "${a} ${b}" }
