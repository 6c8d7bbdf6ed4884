define mrtest_cfgfile (String $content = '') {
  file { "/tmp/mrtest-cf-${title}": ensure => file, content => $content }
}
mrtest_cfgfile { ['a', 'b']: content => 'x' }
File <| title == '/tmp/mrtest-cf-a' |> { mode => '0444' }
