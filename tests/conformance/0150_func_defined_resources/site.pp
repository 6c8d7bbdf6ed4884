file { '/tmp/mrtest-exists': ensure => file }
@notify { 'mrtest-virtual-only': }
$a = defined(File['/tmp/mrtest-exists'])
$b = defined(File['/tmp/mrtest-missing'])
$c = defined(Notify['mrtest-virtual-only'])
$d = defined(Notify['mrtest-declared-below'])
notify { 'mrtest-declared-below': }
notify { 'mrtest-defined-res': message => "${a} ${b} ${c} ${d}" }
