class once { notice('evaluated once') }
include once
include once
notice(defined(Class['once']))
