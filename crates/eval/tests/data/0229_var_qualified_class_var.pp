class appcfg {
  $port = 8080
  $name_used = $name
}
include settings
notice($appcfg::port)
notice($::appcfg::port)
notice($appcfg::name_used)
