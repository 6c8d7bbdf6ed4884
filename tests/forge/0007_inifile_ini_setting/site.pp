# Settings in an INI file, one removed.
ini_setting { 'sample setting':
  ensure  => present,
  path    => '/tmp/foo.ini',
  section => 'bar',
  setting => 'baz',
  value   => 'quux',
}
ini_setting { 'remove old':
  ensure  => absent,
  path    => '/tmp/foo.ini',
  section => 'bar',
  setting => 'old',
}
$defaults = { 'path' => '/tmp/bar.ini' }
$example = { 'section1' => { 'setting1' => 'value1' }, 'section2' => { 'setting2' => 'value2', 'setting3' => { 'ensure' => 'absent' } } }
inifile::create_ini_settings($example, $defaults)
