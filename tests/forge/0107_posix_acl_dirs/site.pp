# POSIX ACLs on a shared directory: a group gets read and write access,
# with default entries inherited by new files, applied recursively.
file { '/srv/mrtest-share':
  ensure => directory,
}
posix_acl { '/srv/mrtest-share':
  action     => set,
  permission => [
    'user::rwx',
    'group::r-x',
    'group:mrtest-team:rwx',
    'mask::rwx',
    'other::---',
    'default:user::rwx',
    'default:group::r-x',
    'default:group:mrtest-team:rwx',
    'default:mask::rwx',
    'default:other::---',
  ],
  provider   => posixacl,
  recursive  => true,
  require    => File['/srv/mrtest-share'],
}
