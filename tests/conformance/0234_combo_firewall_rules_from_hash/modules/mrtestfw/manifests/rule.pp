define mrtestfw::rule (Integer $port, Enum['tcp', 'udp'] $proto) {
  $safe = regsubst($title, ' ', '_', 'G')
  file { "/tmp/mrtest-fw.d/${safe}.rule":
    ensure  => file,
    content => "-A INPUT -p ${proto} --dport ${port} -j ACCEPT\n",
    require => File['/tmp/mrtest-fw.d'],
  }
}
