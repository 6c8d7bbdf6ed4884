# A load balancer: HAProxy in front of the web servers.
class role::lb {
  include profile::base
  include profile::haproxy
}
