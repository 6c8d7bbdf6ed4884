# memcached with the module's defaults (memory from the node's facts).
class { 'memcached': }
