define mrtestconf::fragment (String $content) {
  file { "/tmp/mrtest-frag-${title}": content => $content }
}
class mrtestconf {
  mrtestconf::fragment { 'a': content => 'A' }
  mrtestconf::fragment { 'b': content => 'B' }
  service { 'mrtest-conf-svc': }
  Mrtestconf::Fragment <| |> ~> Service['mrtest-conf-svc']
}
include mrtestconf
