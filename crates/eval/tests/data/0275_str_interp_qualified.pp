class k { $v = 'kv' }
include k
notice("${k::v} and $k::v")
notice("${::k::v}")
