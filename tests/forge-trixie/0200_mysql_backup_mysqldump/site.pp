# Nightly mysqldump backups, one compressed file per database with routines
# and triggers, kept 14 days, with a script run after each backup.
class { 'mysql::server':
  root_password => 'mrtest-root-pw',
}
class { 'mysql::server::backup':
  backupuser        => 'mrtest_backup',
  backuppassword    => 'mrtest-backup-pw',
  backupdir         => '/srv/mrtest-mysqlbackup',
  backupdirmode     => '0750',
  backupcompress    => true,
  backuprotate      => 14,
  file_per_database => true,
  include_routines  => true,
  include_triggers  => true,
  excludedatabases  => ['information_schema', 'performance_schema'],
  time              => ['2', '30'],
  postscript        => ['/usr/local/bin/mrtest-backup-sync'],
}
