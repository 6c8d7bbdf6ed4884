if 'x1' =~ /x(\d)/ {
  notice("got $1 from ${0}")
}
