class ntp (Array $servers) { notify { "mrtest-ntp": message => "${servers}" } }
