# Replacing every match needs `multiple`.
file_line { 'multiple':
  path                                  => '/tmp/mrtest-apply/x',
  line                                  => 'x',
  match                                 => '^x',
  multiple                              => false,
  replace_all_matches_not_matching_line => true,
}
