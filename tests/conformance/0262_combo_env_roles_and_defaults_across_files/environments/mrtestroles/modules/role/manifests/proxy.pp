class role::proxy {
  include profile::haproxy
}
