# limits.d drop-ins (limits::limits): by user/item title, with explicit
# user and item, both limits at once, and two items in one target file.
include limits
limits::limits { '*/nofile':
  hard => 65536,
  soft => 16384,
}
limits::limits { 'mrtest-db':
  user       => 'mrtest-db',
  limit_type => 'nproc',
  both       => 4096,
}
limits::limits { 'root/nofile':
  both   => 100000,
  target => '01-root.conf',
}
limits::limits { 'root/core':
  soft   => 0,
  target => '01-root.conf',
}
