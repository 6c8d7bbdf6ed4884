class ntp (
  Array[String] $servers,
  Boolean $iburst,
  String $config_mode,
  String $driftfile,
) {
  notify { 'mrtest-ntp':
    message => "servers=${servers} iburst=${iburst} mode=${config_mode} drift=${driftfile}",
  }
}
