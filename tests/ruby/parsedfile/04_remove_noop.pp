# Removal in noop changes nothing.
mailalias { 'mrtest-web': ensure => absent, target => '/tmp/mrtest-rbtypes/aliases' }
postgresql_conf { 'listen_addresses': ensure => absent, target => '/tmp/mrtest-rbtypes/postgresql.conf' }
