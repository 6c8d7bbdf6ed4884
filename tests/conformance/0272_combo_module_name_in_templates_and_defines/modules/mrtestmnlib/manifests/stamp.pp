define mrtestmnlib::stamp () {
  notify { "mrtest-stamp-${title}": message => "${module_name} called by ${caller_module_name}" }
}
