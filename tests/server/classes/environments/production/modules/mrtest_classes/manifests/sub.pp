class mrtest_classes::sub {
}

define mrtest_classes::thing ($x = 1) {
}
