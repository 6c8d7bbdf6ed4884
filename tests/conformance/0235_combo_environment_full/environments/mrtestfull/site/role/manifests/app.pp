class role::app {
  include profile::base
  include profile::java
}
