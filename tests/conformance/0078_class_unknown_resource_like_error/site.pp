class { 'mrtest::nothing::here': }
