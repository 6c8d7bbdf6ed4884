# file_line from Debian's stdlib: appending, replacing by match, inserting
# after a line, removing by line and by match, and the switches that turn
# each off.
$d = '/tmp/mrtest-apply/fl'
file_line { 'plain': path => "${d}/plain", line => 'c' }
file_line { 'match':
  path  => "${d}/match",
  line  => 'export PROXY=new',
  match => '^export PROXY=',
}
file_line { 'after':
  path  => "${d}/after",
  line  => 'y=2',
  after => '^\[main\]',
}
file_line { 'absent':
  ensure => absent,
  path   => "${d}/absent",
  line   => 'drop',
}
file_line { 'absent_match':
  ensure            => absent,
  path              => "${d}/absent_match",
  match             => '^#remove',
  multiple          => true,
  match_for_absence => true,
}
file_line { 'noreplace':
  path    => "${d}/noreplace",
  line    => 'key=new',
  match   => '^key=',
  replace => false,
}
file_line { 'noappend':
  path               => "${d}/noappend",
  line               => 'key=new',
  match              => '^key=',
  append_on_no_match => false,
}
file_line { 'all':
  path                                  => "${d}/all",
  line                                  => 'k=new',
  match                                 => '^k=',
  multiple                              => true,
  replace_all_matches_not_matching_line => true,
}
file_line { 'nonl': path => "${d}/nonl", line => 'c' }
file_line { 'present': path => "${d}/present", line => 'second' }
file_line { 'match_after':
  path  => "${d}/match_after",
  line  => 'new=1',
  match => '^new=',
  after => '^\[s\]',
}
file { "${d}/managed": ensure => file, mode => '0644' }
file_line { 'managed': path => "${d}/managed", line => 'from file_line' }
