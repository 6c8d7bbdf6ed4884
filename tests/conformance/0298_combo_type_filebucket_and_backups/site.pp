filebucket { 'mrtest-main': path => false }
File { backup => 'mrtest-main' }
class profile::managed_etc {
  file { '/tmp/mrtest-etc-issue': content => "Debian ${facts['os']['release']['full']}\n" }
}
include profile::managed_etc
