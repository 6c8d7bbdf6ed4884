class mrtest_needs (String $required_thing) { }
include mrtest_needs
