# A file changed first, then a chime subscribed to it: the deprecated
# provider's warning comes before any change, as Puppet makes every
# resource's provider before the run; the chime's volume is set, and its
# refresh fails because the parent's command is not installed, which
# Puppet reports as a command the child does not define.
file { '/tmp/mrtest-rbtypes/doorbell.txt':
  ensure  => file,
  content => "ding\n",
}
mrtest_chime { 'door':
  volume    => '3',
  subscribe => File['/tmp/mrtest-rbtypes/doorbell.txt'],
}
