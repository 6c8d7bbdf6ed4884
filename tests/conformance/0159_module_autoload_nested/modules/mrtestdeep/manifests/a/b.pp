class mrtestdeep::a::b {
  notify { 'mrtest-deep-ab': message => $module_name }
}
