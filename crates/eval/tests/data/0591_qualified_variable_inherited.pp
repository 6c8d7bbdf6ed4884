# A qualified variable is found in the classes its class inherits from.
class base { $shared = 'from base' }
class derived inherits base { $own = 'own' }
include derived
notice("${derived::shared} ${derived::own}")
