# A defined type that adds a fragment per declaration, as the concat README shows for motd entries.
define motd::register (String $content = '', String $order = '10') {
  concat::fragment { "motd_fragment_${name}":
    target  => '/etc/motd',
    order   => $order,
    content => "    -- ${name}: ${content}\n",
  }
}
concat { '/etc/motd':
  ensure_newline => true,
  warn           => true,
}
motd::register { 'Apache': content => 'web server' }
motd::register { 'Postfix': content => 'mail server', order => '20' }
