# ini_setting from Debian's inifile: settings outside any section, changed
# values, a setting placed after its commented-out form, new settings and
# sections, removal (an emptied section goes too), other separators and
# section brackets, indentation, hidden values and refreshonly.
$d = '/tmp/mrtest-apply/ini'
ini_setting { 'top': path => "${d}/app.ini", section => '', setting => 'top', value => '2' }
ini_setting { 'key1': path => "${d}/app.ini", section => 'main', setting => 'key1', value => 'new' }
ini_setting { 'key2': path => "${d}/app.ini", section => 'main', setting => 'key2', value => 'v2' }
ini_setting { 'key3': path => "${d}/app.ini", section => 'main', setting => 'key3', value => 'v3' }
ini_setting { 'other': path => "${d}/app.ini", section => 'other', setting => 'new', value => 'x' }
ini_setting { 'fresh':
  path    => "${d}/app.ini",
  section => 'fresh',
  setting => 'a',
  value   => ' b ',
}
ini_setting { 'global_new': path => "${d}/app.ini", setting => 'g', value => 1 }
ini_setting { 'gone':
  ensure  => absent,
  path    => "${d}/remove.ini",
  section => 'gone',
  setting => 'only',
}
ini_setting { 'new_file':
  path              => "${d}/new.ini",
  section           => 'sec',
  setting           => 'k',
  value             => 'v',
  key_val_separator => '=',
  section_prefix    => '<',
  section_suffix    => '>',
  indent_char       => "\t",
  indent_width      => 1,
}
ini_setting { 'no_section':
  path                       => "${d}/app.ini",
  section                    => 'missing',
  setting                    => 'k',
  value                      => 'v',
  force_new_section_creation => false,
}
ini_setting { 'password':
  path      => "${d}/secret.ini",
  section   => 's',
  setting   => 'password',
  value     => 'new',
  show_diff => false,
}
ini_setting { 'token':
  path      => "${d}/secret.ini",
  section   => 's',
  setting   => 'token',
  value     => 'new',
  show_diff => md5,
}
ini_setting { 'later':
  path        => "${d}/secret.ini",
  section     => 's',
  setting     => 'later',
  value       => 'new',
  refreshonly => true,
}
