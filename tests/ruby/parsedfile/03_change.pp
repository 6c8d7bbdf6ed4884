# Records change in place.
mailalias { 'mrtest-web': recipient => ['ops@example.com'], target => '/tmp/mrtest-rbtypes/aliases' }
postgresql_conf { 'max_connections': value => '250', target => '/tmp/mrtest-rbtypes/postgresql.conf' }
