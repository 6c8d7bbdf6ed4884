class settings {
  $port = 8080
  $name_used = $name
}
include settings
notice($settings::port)
notice($::settings::port)
notice($settings::name_used)
