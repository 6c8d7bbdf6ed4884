# A read-only attribute cannot be set.
mrtest_rakv { 'zeta': value => 'z', checksum => '12' }
