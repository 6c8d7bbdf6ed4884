# ini_subsetting from Debian's inifile: changed and added subsettings,
# insertion places, other separators, exact matches and removal.
$d = '/tmp/mrtest-apply/ini'
ini_subsetting { 'xmx':
  path       => "${d}/sub.ini",
  section    => 'java',
  setting    => 'args',
  subsetting => '-Xmx',
  value      => '2g',
}
ini_subsetting { 'xms':
  path        => "${d}/sub.ini",
  section     => 'java',
  setting     => 'args',
  subsetting  => '-Xms',
  value       => '512m',
  insert_type => start,
}
ini_subsetting { 'flag_d':
  path                 => "${d}/sub.ini",
  section              => 'java',
  setting              => 'flags',
  subsetting           => 'd',
  subsetting_separator => ',',
  insert_type          => after,
  insert_value         => 'a',
}
ini_subsetting { 'flag_b':
  ensure               => absent,
  path                 => "${d}/sub.ini",
  section              => 'java',
  setting              => 'flags',
  subsetting           => 'b',
  subsetting_separator => ',',
}
ini_subsetting { 'only':
  ensure          => absent,
  path            => "${d}/sub.ini",
  section         => 'java',
  setting         => 'single',
  subsetting      => '-only',
  delete_if_empty => true,
}
ini_subsetting { 'exact':
  path            => "${d}/sub.ini",
  section         => 'java',
  setting         => 'exact',
  subsetting      => '-ser',
  use_exact_match => true,
  insert_type     => index,
  insert_value    => 1,
}
ini_subsetting { 'quoted':
  path       => "${d}/sub.ini",
  section    => 'new',
  setting    => 'opts',
  subsetting => 'x',
  value      => '1',
  quote_char => '"',
  subsetting_key_val_separator => '=',
}
