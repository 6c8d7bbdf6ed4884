class mrtest (String $a) {
  notify { 'a': message => $a }
}
