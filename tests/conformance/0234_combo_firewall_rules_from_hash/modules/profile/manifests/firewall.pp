class profile::firewall (Hash[String, Hash] $rules = {}) {
  file { '/tmp/mrtest-fw.d': ensure => directory, purge => true, recurse => true }
  $rules.each |$name, $r| {
    mrtestfw::rule { $name:
      port  => $r['port'],
      proto => $r.dig('proto').lest || { 'tcp' },
    }
  }
}
