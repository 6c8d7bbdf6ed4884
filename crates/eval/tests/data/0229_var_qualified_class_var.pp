class appcfg {
  $port = 8080
  $name_used = $name
}
include appcfg
notice($appcfg::port)
notice($::appcfg::port)
notice($appcfg::name_used)
