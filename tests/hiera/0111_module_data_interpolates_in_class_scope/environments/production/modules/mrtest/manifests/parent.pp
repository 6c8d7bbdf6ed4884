class mrtest::parent {
  $parentvar = 'from the parent'
}
