class mrtestlog (String $dir = '/tmp/mrtest-log', Integer $keep = 7) {
  file { $dir: ensure => directory }
}
define mrtestlog::rotate (
  String $path = "${mrtestlog::dir}/${title}.log",
  Integer $keep = $mrtestlog::keep,
) {
  include mrtestlog
  file { "/tmp/mrtest-logrotate.d/${title}":
    content => "${path} { rotate ${keep} }\n",
    require => File[$mrtestlog::dir],
  }
}
class { 'mrtestlog': keep => 14 }
mrtestlog::rotate { 'app': }
mrtestlog::rotate { 'web': keep => 3 }
