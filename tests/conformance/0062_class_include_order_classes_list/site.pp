class mrtest_z { }
class mrtest_y { include mrtest_x }
class mrtest_x { }
include mrtest_z
include mrtest_y
