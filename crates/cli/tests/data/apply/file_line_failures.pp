# file_line failing on what the files hold: a missing file, several
# matches without `multiple`, several lines matching `after`.
$d = '/tmp/mrtest-apply/fl'
file_line { 'missing': path => "${d}/missing", line => 'x' }
file_line { 'twice':
  path  => "${d}/twice",
  line  => 'k=3',
  match => '^k=',
}
file_line { 'after_twice':
  path  => "${d}/after_twice",
  line  => 'x=1',
  after => '^\[a\]',
}
file_line { 'absent_twice':
  ensure            => absent,
  path              => "${d}/twice",
  match             => '^k=',
  match_for_absence => true,
}
