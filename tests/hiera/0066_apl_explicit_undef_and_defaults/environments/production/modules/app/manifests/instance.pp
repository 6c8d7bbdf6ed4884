define app::instance (Integer $port = 1) {
  notify { "mrtest-instance-${title}": message => "port=${port} (defines get no automatic lookup)" }
}
