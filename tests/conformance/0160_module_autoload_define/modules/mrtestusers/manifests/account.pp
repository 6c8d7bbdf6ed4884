define mrtestusers::account (Integer $uid) {
  user { $title: uid => $uid, managehome => true }
  file { "/tmp/mrtest-homes/${title}": ensure => directory, owner => $title }
}
