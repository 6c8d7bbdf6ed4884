if 'abc' =~ /^(a)(b)/ {
  notice($0, $1, $2)
}
