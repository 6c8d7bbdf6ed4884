# A drop-in file, a tmpfile and service limits.
systemd::dropin_file { 'foo.conf':
  unit    => 'foo.service',
  content => "[Service]\nRestart=always\n",
}
systemd::tmpfile { 'foo.conf':
  content => "d /run/foo 0755 root root -\n",
}
systemd::service_limits { 'foo.service':
  limits => {
    'LimitNOFILE' => 8192,
    'LimitNPROC'  => 16384,
  },
}
