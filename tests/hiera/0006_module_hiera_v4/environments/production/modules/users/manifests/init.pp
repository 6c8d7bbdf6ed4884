class users (Hash $accounts) { $accounts.each |$n, $a| { notify { "mrtest-user-${n}": message => "${a[uid]} ${a[shell]}" } } }
