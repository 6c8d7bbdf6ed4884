class foo(Integer $port) {
  notice($port)
}
