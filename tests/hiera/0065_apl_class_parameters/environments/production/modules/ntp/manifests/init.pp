class ntp (
  Array[String[1]] $servers,
  Boolean $iburst,
  String $driftfile = '/unused',
  Integer $minpoll = 6,
) {
  notify { 'mrtest-ntp': message => "servers=${servers} iburst=${iburst} driftfile=${driftfile} minpoll=${minpoll}" }
}
