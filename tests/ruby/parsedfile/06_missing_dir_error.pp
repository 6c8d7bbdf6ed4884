# A record for a file whose directory does not exist: Puppet reports it
# created, then fails to write the file in the provider's flush.
# Marionette writes as part of the change and reports the change failed
# (06_missing_dir_error.marionette.out), naming the file as Puppet does.
postgresql_conf { 'port':
  value  => '5433',
  target => '/tmp/mrtest-rbtypes/missing/postgresql.conf',
}
