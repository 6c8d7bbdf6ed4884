# Nothing to change: the files are not written again.
mailalias { 'mrtest-web': recipient => ['root', 'ops@example.com'], target => '/tmp/mrtest-rbtypes/aliases' }
mailalias { 'postmaster': recipient => 'admin', target => '/tmp/mrtest-rbtypes/aliases' }
postgresql_conf { 'max_connections': value => '100', target => '/tmp/mrtest-rbtypes/postgresql.conf' }
postgresql_conf { 'listen_addresses': value => '*', target => '/tmp/mrtest-rbtypes/postgresql.conf' }
