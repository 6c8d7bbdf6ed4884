if { notice(1) }
