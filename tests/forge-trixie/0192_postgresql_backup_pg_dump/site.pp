# Daily pg_dump backups of every database by a dedicated backup role,
# rotated after 15 days (README "Backups").
class { 'postgresql::globals':
  manage_package_repo => false,
}
class { 'postgresql::server':
  backup_enable   => true,
  backup_provider => 'pg_dump',
  backup_options  => {
    'db_user'     => 'mrtest_backup',
    'db_password' => 'mrtest-backup-pw',
    'manage_user' => true,
    'rotate'      => 15,
    'dir'         => '/srv/mrtest-pgbackup',
  },
}
