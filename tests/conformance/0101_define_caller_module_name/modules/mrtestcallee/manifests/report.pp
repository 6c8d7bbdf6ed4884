define mrtestcallee::report () {
  notify { "mrtest-report-${title}":
    message => "module=${module_name} caller=${caller_module_name}",
  }
}
