define mrtest_account (
  Integer $uid,
  String $shell                 = '/bin/bash',
  Array[String] $groups         = [],
  Optional[String] $comment     = undef,
  Enum['present', 'absent'] $ensure = 'present',
) {
  user { $title:
    ensure  => $ensure,
    uid     => $uid,
    shell   => $shell,
    groups  => $groups,
    comment => $comment,
  }
}
mrtest_account { 'mrtest-ann': uid => 4401, groups => ['mrtest-dev'] }
mrtest_account { 'mrtest-ben': uid => 4402, comment => 'Ben', ensure => absent }
