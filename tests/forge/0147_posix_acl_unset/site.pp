# Granting a backup user read access to a log directory without touching
# the other entries, and removing a former user's entry elsewhere.
posix_acl { '/var/log/mrtest-app':
  action     => set,
  permission => ['user:mrtest-backup:r-x', 'default:user:mrtest-backup:r-x'],
  provider   => posixacl,
}
posix_acl { '/srv/mrtest-projects':
  action     => unset,
  permission => ['user:mrtest-former:rwx'],
  provider   => posixacl,
  recursive  => true,
}
