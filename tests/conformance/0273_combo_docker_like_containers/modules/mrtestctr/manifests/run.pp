define mrtestctr::run (String $image, Array[String] $ports = [], Array[String] $depends = []) {
  $unit = "/tmp/mrtest-units/${title}.service"
  file { $unit:
    content => "ExecStart=docker run ${ports.map |$p| { "-p ${p}" }.join(' ')} ${image}\n",
    require => Service['mrtest-docker'],
  }
  service { "mrtest-ctr-${title}":
    ensure    => running,
    subscribe => File[$unit],
    require   => $depends.map |$d| { Service["mrtest-ctr-${d}"] },
  }
}
