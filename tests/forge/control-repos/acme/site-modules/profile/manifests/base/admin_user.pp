# An administrator's account, its primary group and SSH key.
define profile::base::admin_user (
  Integer[1000]    $uid,
  String[1]        $comment,
  Array[String[1]] $groups = [],
  String[1]        $shell = '/bin/bash',
  Optional[String[1]] $ssh_key = undef,
  Enum['present', 'absent'] $ensure = 'present',
) {
  group { $title:
    ensure => $ensure,
    gid    => $uid,
  }
  user { $title:
    ensure     => $ensure,
    uid        => $uid,
    gid        => $uid,
    comment    => $comment,
    groups     => $groups,
    shell      => $shell,
    home       => "/home/${title}",
    managehome => true,
    require    => Group[$title],
  }
  if $ssh_key {
    ssh_authorized_key { "${title}@acme":
      ensure => $ensure,
      user   => $title,
      type   => 'ssh-ed25519',
      key    => $ssh_key,
    }
  }
}
