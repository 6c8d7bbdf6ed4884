exec { 'a':
  command => '/bin/true',
  unless  => '/bin/false',
  require => Package['x'],
  before  => File['y'],
}
