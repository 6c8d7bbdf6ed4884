class profile::toolbox {
  realize(Package['mrtest-strace'], Package['mrtest-make'])
}
