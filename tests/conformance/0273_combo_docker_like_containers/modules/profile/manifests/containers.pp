class profile::containers (Hash $containers) {
  package { 'mrtest-docker': ensure => installed }
  -> service { 'mrtest-docker': ensure => running }
  $containers.each |$name, $c| {
    mrtestctr::run { $name:
      image   => $c['image'],
      ports   => $c['ports'],
      depends => $c.get('depends', []),
    }
  }
}
