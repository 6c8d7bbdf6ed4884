class mrtest::child (String $b) inherits mrtest::parent {
  notify { 'b': message => $b }
}
