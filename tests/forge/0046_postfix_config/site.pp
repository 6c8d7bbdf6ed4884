# Postfix as a satellite with main.cf settings and a hash map.
class { 'postfix':
  relayhost => 'mail.example.com',
  myorigin  => 'example.com',
}
postfix::config { 'smtp_use_tls':
  value => 'yes',
}
postfix::config { 'message_size_limit':
  value => '20480000',
}
postfix::hash { '/etc/postfix/virtual':
  ensure  => 'present',
  content => "user@example.com user\n",
}
