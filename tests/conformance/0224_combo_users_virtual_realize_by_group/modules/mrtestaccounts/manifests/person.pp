define mrtestaccounts::person (Integer $uid, String $team) {
  user { $title: ensure => present, uid => $uid, comment => "team ${team}" }
  file { "/tmp/mrtest-home/${title}": ensure => directory, owner => $title }
}
