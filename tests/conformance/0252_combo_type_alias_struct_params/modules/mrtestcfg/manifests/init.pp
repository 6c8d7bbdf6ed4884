class mrtestcfg (Mrtestcfg::Settings $settings) {
  $tls = $settings['tls'] ? { undef => false, default => $settings['tls'] }
  file { '/tmp/mrtest-cfg.ini':
    content => "name=${settings['name']}\nport=${settings['port']}\ntls=${tls}\n",
  }
}
