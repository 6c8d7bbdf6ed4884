class mrtest ($bad = 'default') {
  notify { "mrtest-${bad}": }
}
include mrtest
