class mrtest_classes::broken (
  $x = ,
) {
}
