node default {
  File { owner => 'mrtest-node-owner' }
  include profile::files
  file { '/tmp/mrtest-node-file': ensure => file }
}
class profile::files {
  File { mode => '0640' }
  file { '/tmp/mrtest-profile-file': ensure => file }
  mrtest_filedef { 'x': }
}
define mrtest_filedef () {
  file { "/tmp/mrtest-filedef-${title}": ensure => file }
}
