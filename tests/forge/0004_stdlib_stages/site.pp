# The run stages class stdlib provides.
class { 'stdlib::stages': }
class repos {
  package { 'apt-transport-https': ensure => installed }
}
class { 'repos': stage => 'setup' }
