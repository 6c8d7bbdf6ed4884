class mrtestsshd::strict inherits mrtestsshd {
  File['/tmp/mrtest-sshd_config'] {
    mode    => '0600',
    content => "Port ${port}\nPermitRootLogin no\n",
  }
  Service['mrtest-ssh'] {
    enable => true,
  }
}
